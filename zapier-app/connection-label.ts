import { ownerLabel } from '../shared/operations/key-owner.ts';

/**
 * The connection's label in Zapier, e.g. "Grace Hopper (Acme)" or "Acme API key". It never shows
 * the key, nor any piece or digest of it: a name that quotes the key is left out. When the key
 * check names nobody the label is empty, so Zapier's own name stands: it always shows the app's
 * name and numbers a user's further connections (#2, #3, …), which tells them apart where a
 * fixed "Pagerly API key" would not ("Add a connection label",
 * docs.zapier.com/platform/build/connection-label).
 */
export function connectionLabel(check: Record<string, unknown>, apiKey: string | undefined): string {
  return ownerLabel(check, apiKey) ?? '';
}
