/**
 * What the console's live feed sends (server-sent events, one event name per `type`) and what
 * its JSON pages answer. Types only: the page imports them too, so both ends agree. No field
 * ever holds an API key: people are named by the key's person, URLs and paths are scrubbed.
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
