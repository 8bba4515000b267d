/**
 * Whose key a connection uses, e.g. "Grace Hopper (Acme)", from the key check's answer.
 * It never shows the key: when the answer names nobody, at most its last four characters.
 */
export function connectionLabel(check: Record<string, unknown>, apiKey: string | undefined): string {
  const user = (check.user ?? {}) as Record<string, unknown>;
  const organization = (check.organization ?? {}) as Record<string, unknown>;
  const who = [user.name, user.email].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const org = typeof organization.name === 'string' && organization.name.trim() ? organization.name.trim() : undefined;
  if (who) return org ? `${who.trim()} (${org})` : who.trim();
  const tail = apiKey && apiKey.trim().length >= 12 ? ` ending …${apiKey.trim().slice(-4)}` : '';
  return org ? `${org} API key${tail}` : `Pagerly API key${tail}`;
}
