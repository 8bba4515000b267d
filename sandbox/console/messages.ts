/**
 * What the console's live feed sends (server-sent events, one event name per `type`) and what
 * its JSON pages answer. Types only: the page imports them too, so both ends agree. No field
 * ever holds an API key: people are named by the key's person, URLs and paths are scrubbed.
 * No text is longer than `FEED_TEXT_MAX` characters (rows.ts; a seed may name a team with
 * 100 KB): a longer one is cut, ending with `…`.
 */

export interface ClockRow {
  readonly now: string;
  readonly mode: 'fixed' | 'real';
}

export interface PersonName {
  readonly id: string;
  readonly name: string;
}

export interface IncidentRow {
  readonly id: string;
  readonly org: string;
  readonly title: string;
  readonly severity: string;
  readonly status: string;
  readonly teamname: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** What the last change was. */
  readonly change: 'opened' | 'updated' | 'resolved';
  /** The person whose key made the last change, when the console saw it. */
  readonly by: string | null;
}

export interface OnCallChangeRow {
  readonly eventId: string;
  readonly at: string;
  readonly team: PersonName;
  readonly previous: readonly PersonName[];
  readonly current: readonly PersonName[];
  /** Subscriptions it was handed to for delivery. */
  readonly hooks: number;
}

export interface PersonRow {
  readonly id: string;
  readonly org: string;
  readonly name: string;
  readonly email: string;
  readonly role: string;
  /** Set when the entry was just removed. */
  readonly removed?: true;
}

export interface SubscriptionRow {
  readonly id: string;
  readonly org: string;
  readonly platform: string;
  readonly url: string;
  readonly team: string | null;
  readonly created_at: string;
  /** active, or why it is gone: unsubscribed through the API, or removed after a 410. */
  readonly state: 'active' | 'unsubscribed' | 'removed-410';
}

export interface DeliveryRow {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  readonly attempt: number;
  readonly outcome: string;
  readonly status: number | null;
  readonly at: string;
  readonly next: 'retry' | 'done' | 'removed' | 'failed';
  readonly nextAttemptAt: string | null;
}

export interface JournalRow {
  readonly seq: number;
  readonly at: string;
  readonly method: string;
  /** Path and query, with anything that is an API key replaced by `[redacted]`. */
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** The key's person and organization, or null (no key, a bad key, a control). */
  readonly who: string | null;
  /** An injected fault answered it (`POST /_sandbox/faults`), not the sandbox's model. */
  readonly injected: boolean;
}

/** A fault waiting for its requests: what `GET /_sandbox/faults` lists, without the body it answers with. */
export interface FaultRow {
  readonly method: string | null;
  readonly path: string;
  readonly status: number;
  /** How many more requests get it. */
  readonly remaining: number;
}

export interface Snapshot {
  readonly clock: ClockRow;
  readonly totals: {
    readonly organizations: number;
    readonly teams: number;
    readonly people: number;
    readonly incidents: number;
    readonly subscriptions: number;
  };
  readonly incidents: readonly IncidentRow[];
  readonly onCallChanges: readonly OnCallChangeRow[];
  readonly subscriptions: readonly SubscriptionRow[];
  readonly deliveries: readonly DeliveryRow[];
  readonly journal: readonly JournalRow[];
  readonly faults: readonly FaultRow[];
}

/** `GET /_sandbox/console/snapshot`: the snapshot, and the id of the last event it holds (a stream resumes after it with `Last-Event-ID`). */
export interface SnapshotPage {
  readonly id: string;
  readonly snapshot: Snapshot;
}

export interface FeedEvents {
  snapshot: Snapshot;
  clock: ClockRow;
  incident: IncidentRow;
  oncall: OnCallChangeRow;
  person: PersonRow;
  subscription: SubscriptionRow;
  delivery: DeliveryRow;
  request: JournalRow;
  /** Every pending fault, each time the list changes (a fault injected, used up or cleared). */
  faults: readonly FaultRow[];
}
export type FeedEventName = keyof FeedEvents;

export interface TeamRow {
  readonly id: string;
  readonly org: string;
  readonly name: string;
  readonly onCall: readonly PersonName[];
}

/** A page of a long list (teams, the directory), `total` matching the query. */
export interface ListPage<Row> {
  readonly total: number;
  readonly offset: number;
  readonly items: readonly Row[];
  /** The sandbox's time the page was read at. */
  readonly at: string;
}

export interface AssumptionRow {
  readonly id: string;
  readonly topic: string;
  readonly choice: string;
}
