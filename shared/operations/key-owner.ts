const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * Whose key it is, from the key check's answer (assumption `apikey-check`): "Grace Hopper
 * (Acme)", the e-mail when there is no name, the organization alone when no person is named.
 * Never built from the key itself; each surface words its own fallback.
 */
export function keyOwner(check: Record<string, unknown>): { who: string | undefined; organization: string | undefined; label: string | undefined } {
  const user = (check.user ?? {}) as Record<string, unknown>;
  const organization = text(((check.organization ?? {}) as Record<string, unknown>).name);
  const who = text(user.name) ?? text(user.email);
  return { who, organization, label: who ? (organization ? `${who} (${organization})` : who) : undefined };
}
