import { keyOwner } from '../shared/operations/key-owner.ts';

/**
 * The connection's label in Zapier, e.g. "Grace Hopper (Acme)". It never shows the key: when
 * the answer names nobody, at most its last four characters.
 */
export function connectionLabel(check: Record<string, unknown>, apiKey: string | undefined): string {
  const { label, organization } = keyOwner(check);
  if (label) return label;
  const tail = apiKey && apiKey.trim().length >= 12 ? ` ending …${apiKey.trim().slice(-4)}` : '';
  return organization ? `${organization} API key${tail}` : `Pagerly API key${tail}`;
}
