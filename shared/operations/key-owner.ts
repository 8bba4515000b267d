import { holdsSecret } from '../redact.ts';
import { showInvisibleControls } from '../visible-controls.ts';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** What a label says when the answer names nobody it can show: a fixed word, never characters of the key. */
export const KEY_LABEL_FALLBACK = 'Pagerly API key';

/**
 * Whose key it is, from the key check's answer (assumption `apikey-check`): "Grace Hopper
 * (Acme)", the e-mail when there is no name, the organization alone when no person is named.
 * Never built from the key itself: a name or organization that holds the key in any form
 * `redact` knows (whole, escaped, encoded, 8+ characters of its start or end) is left out, as
 * if the answer had not given it; each surface words its own fallback.
 */
export function keyOwner(
  check: Record<string, unknown>,
  apiKey?: string,
): { who: string | undefined; organization: string | undefined; label: string | undefined } {
  const keys = apiKey === undefined ? [] : [apiKey, apiKey.trim()];
  const shown = (value: unknown) => {
    const found = text(value);
    return found !== undefined && holdsSecret(found, keys) ? undefined : found;
  };
  const user = (check.user ?? {}) as Record<string, unknown>;
  const organization = shown(((check.organization ?? {}) as Record<string, unknown>).name);
  const who = shown(user.name) ?? shown(user.email);
  return { who, organization, label: who ? (organization ? `${who} (${organization})` : who) : undefined };
}

/**
 * What tells one connection from another, from the key check's answer: the owner, else
 * "<organization> API key"; nothing when the answer names neither, since a fixed word would
 * tell no two connections apart. Service text on the platform's page: its invisible controls
 * are shown, never applied (shared/visible-controls.ts).
 */
export function ownerLabel(check: Record<string, unknown>, apiKey: string | undefined): string | undefined {
  const { label, organization } = keyOwner(check, apiKey);
  const owner = label ?? (organization ? `${organization} API key` : undefined);
  return owner === undefined ? undefined : showInvisibleControls(owner);
}

/**
 * A connection's label where the platform needs some text (Make's is the same rule in IML,
 * make-app/generator/connection.ts): the owner label, else the fixed word.
 */
export function connectionLabelFor(check: Record<string, unknown>, apiKey: string | undefined): string {
  return ownerLabel(check, apiKey) ?? KEY_LABEL_FALLBACK;
}
