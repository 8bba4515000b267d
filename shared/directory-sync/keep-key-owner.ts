import type { PagerlyClient } from '../client.ts';
import { AuthenticationError, InvalidResponseError } from '../errors.ts';
import { findKeyOwner, isKeyOwner, ownerKnown, REVOKES_OWN_KEY, type KeyOwner } from './key-owner.ts';
import type { PlannedRow } from './plan.ts';

export const OWNER_SKIP_REASON = `${REVOKES_OWN_KEY}, and the sync runs with that key; remove them with \`pagerly directory remove EMAIL --force\`, or sync with another admin's key`;

/**
 * A sync never removes the person its key acts as: that would revoke the key halfway
 * through. Asks the service whose key it is once, and only when the plan removes someone;
 * that row becomes `skip` with the reason. When whose key it is cannot be told, no removal
 * is sent (each remove row fails with why); the other rows go on. A refused key is thrown.
 * `reason` is what the skipped row says: by default the CLI's words (`pagerly directory
 * remove`); another surface names its own way out.
 */
export async function keepKeyOwner(plan: readonly PlannedRow[], client: PagerlyClient, reason: string = OWNER_SKIP_REASON): Promise<PlannedRow[]> {
  if (!plan.some((row) => row.kind === 'remove')) return [...plan];
  let owner: KeyOwner;
  try {
    owner = await findKeyOwner(client);
    if (!ownerKnown(owner))
      throw new InvalidResponseError(
        "The key check did not say whose key this is (no user e-mail or id in its answer), so no entry is removed: one of them could be the key's own.",
        { endpoint: 'checkApiKey' },
      );
  } catch (error) {
    if (error instanceof AuthenticationError) throw error;
    return plan.map((row) =>
      row.kind === 'remove'
        ? { kind: 'lookup-failed', row: row.row, email: row.email, error, during: 'tell whose API key this is, so nobody is removed' }
        : row,
    );
  }
  return plan.map((row) =>
    row.kind === 'remove' && isKeyOwner(owner, { email: row.email, id: row.current.id })
      ? { kind: 'skip', row: row.row, email: row.email, reason, current: row.current }
      : row,
  );
}
