import { connectionLabelFor } from '../shared/operations/key-owner.ts';

/**
 * The connection's label in Zapier, e.g. "Grace Hopper (Acme)". It never shows the key, nor any
 * piece of it: a name that quotes the key is left out, and with nobody to name it reads
 * "Acme API key" or "Pagerly API key".
 */
export function connectionLabel(check: Record<string, unknown>, apiKey: string | undefined): string {
  return connectionLabelFor(check, apiKey);
}
