import { randomBytes } from 'node:crypto';
import type { AttemptReport } from '../delivery/delivery-queue.ts';
import type { OnCallChangedEvent } from '../delivery/on-call-watcher.ts';
import type { DeliveryRow, FaultRow, FeedEventName, FeedEvents, IncidentRow, JournalRow, OnCallChangeRow, Snapshot, SubscriptionRow } from './messages.ts';
import { Ring } from './ring.ts';
import { boundedText, idAndName } from './rows.ts';
import type { Scrub } from './scrub.ts';

/** One server-sent event, written once and sent as is to every client. */
interface Message {
  readonly id: number;
  readonly text: string;
}

/** Where a client's events go: a stream the feed writes to, and ends when it falls too far behind. */
export interface FeedClient {
  write(text: string): void;
  /** Bytes written but not yet taken by the socket. */
  readonly backlog: number;
  end(): void;
}

/** A client that cannot keep up is dropped past this backlog; its browser reconnects and catches up from `Last-Event-ID` or a snapshot. */
const MAX_BACKLOG = 4 * 1024 * 1024;
/** Events are sent in batches at most this often: under load one write per batch, not one per request. */
const FLUSH_MS = 50;
const KEPT_MESSAGES = 2_000;

/**
 * The console's live feed: every change the sandbox reports is numbered, kept for a while (so a
 * reconnecting page gets what it missed from `Last-Event-ID`) and sent to each open stream in
 * batches. What a fresh page needs (the latest incidents, deliveries, requests) is kept in
 * bounded lists for its snapshot; long lists (teams, the directory) are read in pages instead.
 */
export class ConsoleFeed {
  private seq = 0;
  /**
   * Starts every event id, so an id from before a restart (a browser reconnecting to a new
   * sandbox on the same port) never names an event of this one: it gets a snapshot instead.
   */
  private readonly epoch = randomBytes(4).toString('hex');
  private readonly recent = new Ring<Message>(KEPT_MESSAGES);
  private readonly clients = new Map<FeedClient, string[]>();
  private flushTimer: NodeJS.Timeout | undefined;
  /** Who made each incident's last change, by incident id (the world keeps no author). */
  private readonly incidentAuthors = new Map<string, string>();
  readonly onCallChanges = new Ring<OnCallChangeRow>(200);
  readonly deliveries = new Ring<DeliveryRow>(500);
  readonly journal = new Ring<JournalRow>(1_000);
  /** Subscriptions that are gone, and why, so the page can still show them. */
  readonly goneSubscriptions = new Ring<SubscriptionRow>(200);
  private journalSeq = 0;
  private faultRows: readonly FaultRow[] = [];
  /** Takes keys out of every path and URL the feed shows. */
  readonly scrub: Scrub;
  /**
   * Takes every key of the sandbox out of a whole text the console sends, in every form
   * `redact` knows: a caller may write one into what the sandbox stores and the console shows
   * (an incident's title, a person's name), not only into a path.
   */
  readonly withoutKeys: (text: string) => string;

  constructor(scrub: Scrub, withoutKeys: (text: string) => string) {
    this.scrub = scrub;
    this.withoutKeys = withoutKeys;
  }

  /** The id of the last event published: what a snapshot taken now is as of. */
  get lastEventId(): string {
    return `${this.epoch}.${this.seq}`;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  publish<N extends FeedEventName>(name: N, data: FeedEvents[N]): void {
    this.seq += 1;
    const message = { id: this.seq, text: this.event(`${this.epoch}.${this.seq}`, name, data) };
    this.recent.push(message);
    if (this.clients.size === 0) return;
    for (const pending of this.clients.values()) pending.push(message.text);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /**
   * Starts a client: what it missed since `lastEventId` when that is still kept, otherwise a
   * snapshot, then every event as it comes.
   */
  connect(client: FeedClient, lastEventId: string | undefined, snapshot: () => Snapshot): void {
    const [epoch, seq] = lastEventId?.split('.') ?? [];
    const after = epoch === this.epoch && seq !== undefined && /^\d{1,15}$/.test(seq) ? Number(seq) : undefined;
    const missed = after === undefined ? undefined : after === this.seq ? [] : this.recent.since((message) => message.id === after);
    client.write('retry: 2000\n\n');
    if (missed) for (const message of missed) client.write(message.text);
    else client.write(this.event(`${this.epoch}.${this.seq}`, 'snapshot', snapshot()));
    this.clients.set(client, []);
  }

  disconnect(client: FeedClient): void {
    this.clients.delete(client);
  }

  /** Ends every stream (the server is closing): an open feed must never hold a shutdown up. */
  closeAll(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    for (const client of this.clients.keys()) client.end();
    this.clients.clear();
  }

  /** One server-sent event, its data without any key. */
  private event(id: string, name: string, data: unknown): string {
    // JSON escapes CR and LF, the only line breaks of the event-stream format, so one data line holds it.
    return `id: ${id}\nevent: ${name}\ndata: ${this.withoutKeys(JSON.stringify(data))}\n\n`;
  }

  /** A comment line now and then keeps proxies and the browser from timing the stream out. */
  heartbeat(): void {
    for (const client of this.clients.keys()) client.write(': keep-alive\n\n');
  }

  private flush(): void {
    this.flushTimer = undefined;
    for (const [client, pending] of this.clients) {
      if (pending.length === 0) continue;
      if (client.backlog > MAX_BACKLOG) {
        this.clients.delete(client);
        client.end();
        continue;
      }
      client.write(pending.join(''));
      pending.length = 0;
    }
  }

  // What the sandbox reports, turned into rows and events.

  incident(row: Omit<IncidentRow, 'by'>, by: string | null): void {
    if (by !== null) this.incidentAuthors.set(row.id, by);
    this.publish('incident', { ...row, by: this.incidentAuthors.get(row.id) ?? null });
  }

  authorOf(incidentId: string): string | null {
    return this.incidentAuthors.get(incidentId) ?? null;
  }

  onCallChanged(event: OnCallChangedEvent, hooks: number): void {
    const row: OnCallChangeRow = {
      eventId: event.id,
      at: event.occurred_at,
      team: idAndName(event.team),
      previous: event.previous.map(idAndName),
      current: event.current.map(idAndName),
      hooks,
    };
    this.onCallChanges.push(row);
    this.publish('oncall', row);
  }

  attempted(report: AttemptReport): void {
    const row: DeliveryRow = {
      eventId: report.eventId,
      subscriptionId: report.subscriptionId,
      url: this.scrub(report.url),
      attempt: report.attempt,
      outcome: report.outcome,
      status: report.status ?? null,
      at: new Date(report.at).toISOString(),
      next: report.next,
      nextAttemptAt: report.nextAttemptAt === undefined ? null : new Date(report.nextAttemptAt).toISOString(),
    };
    this.deliveries.push(row);
    this.publish('delivery', row);
  }

  subscription(row: SubscriptionRow): void {
    if (row.state !== 'active') this.goneSubscriptions.push(row);
    this.publish('subscription', row);
  }

  /** The pending faults changed: each stream gets the whole list (it is short). */
  faults(rows: readonly FaultRow[]): void {
    this.faultRows = rows.map((row) => ({ ...row, path: this.scrub(row.path), method: row.method === null ? null : boundedText(row.method) }));
    this.publish('faults', this.faultRows);
  }

  pendingFaults(): readonly FaultRow[] {
    return this.faultRows;
  }

  request(row: Omit<JournalRow, 'seq'>): void {
    this.journalSeq += 1;
    const entry = { ...row, seq: this.journalSeq };
    this.journal.push(entry);
    this.publish('request', entry);
  }
}
