import type { PendingDelivery } from './state-file.ts';

/** At most this many are named one by one; the rest are counted. */
const NAMED = 10;

/**
 * The start-up warning about pending deliveries whose subscription is not in the state file:
 * how many, which events to which subscriptions, and what to do about them. Empty when none.
 */
export function describeOrphans(file: string, orphans: readonly PendingDelivery[]): string {
  if (orphans.length === 0) return '';
  const named = orphans
    .slice(0, NAMED)
    .map((job) => `${job.eventId} to ${job.subscriptionId}`)
    .join(', ');
  const more = orphans.length > NAMED ? ` and ${orphans.length - NAMED} more` : '';
  const count = orphans.length === 1 ? '1 pending delivery names a subscription' : `${orphans.length} pending deliveries name subscriptions`;
  return (
    `Sandbox state file ${file}: ${count} the file does not have, so ${orphans.length === 1 ? 'it is' : 'they are'} not delivered: ${named}${more}. ` +
    `Kept in the file: put the subscription back in "subscriptions" to have ${orphans.length === 1 ? 'it' : 'them'} sent, or remove ${orphans.length === 1 ? 'it' : 'them'} from "pending".`
  );
}
