import type { PagerlyClient } from '../client.ts';

/**
 * The person the API key acts as, from the key check (`GET /o/test/apikey`). Removing their
 * directory entry revokes the key itself (assumption `directory-remove`): a sync would lose
 * its key halfway, a script every later call. So the CLI looks the owner up before a removal.
 */
export interface KeyOwner {
  /** Lower case: e-mails compare ignoring letter case (assumption `directory-entry`). */
  readonly email: string | undefined;
  readonly id: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** Asks the service once whose key it is. Throws the client's error (a refused key: exit 3). */
export async function findKeyOwner(client: PagerlyClient): Promise<KeyOwner> {
  const check = await client.checkApiKey();
  const email = text(check.user?.email)?.toLowerCase();
  return { email, id: text(check.user?.id) };
}

/** Whether the answer named anyone: without an e-mail or an id nobody can be told apart from the owner. */
export const ownerKnown = (owner: KeyOwner) => owner.email !== undefined || owner.id !== undefined;

/** True when the entry (by e-mail, or by the id its lookup gave) is the key's owner's. */
export function isKeyOwner(owner: KeyOwner, entry: { email: string; id?: string | undefined }): boolean {
  if (owner.email !== undefined && entry.email.trim().toLowerCase() === owner.email) return true;
  return owner.id !== undefined && entry.id !== undefined && entry.id === owner.id;
}

export const REVOKES_OWN_KEY = 'that is the person this API key acts as: removing their entry revokes the key itself';
