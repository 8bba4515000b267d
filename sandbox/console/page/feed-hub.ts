// One feed for every console tab of a browser: the hub holds the one stream (feed-stream.ts),
// keeps the latest snapshot and the events since, and gives a tab that joins the state so far
// before the live events. Run in a SharedWorker (feed-worker.ts), it is why the sixth tab of a
// browser is as live as the first: HTTP/1.1 lets a browser hold six connections to a host, and
// a stream per tab would take them all.
import type { SnapshotPage } from '../messages.ts';
import { FeedStream, type FeedMessage, type FeedState } from './feed-stream.ts';

export interface FeedListener {
  events(messages: readonly FeedMessage[]): void;
  state(state: FeedState): void;
}

const SNAPSHOT_URL = '/_sandbox/console/snapshot';
/** Past this many events since the snapshot, a newer snapshot is read, so a tab that joins late gets a short replay. */
const REPLAY_MAX = 2_000;

/** `3f9a0c1e.12` → its epoch and count. */
function idParts(id: string): { epoch: string; seq: number } {
  const [epoch = '', seq = ''] = id.split('.');
  return { epoch, seq: Number(seq) };
}

export class FeedHub {
  private readonly listeners = new Set<FeedListener>();
  private state: FeedState = { phase: 'connecting' };
  /** The latest snapshot, and every event after it: what a tab that joins is given first. */
  private snapshot: FeedMessage | undefined;
  private since: FeedMessage[] = [];
  private reading: Promise<void> | undefined;
  private readonly stream: FeedStream;

  constructor() {
    this.stream = new FeedStream({ events: (messages) => this.received(messages), state: (state) => this.stateChanged(state) });
  }

  join(listener: FeedListener): void {
    this.listeners.add(listener);
    listener.state(this.state);
    if (this.snapshot) listener.events([this.snapshot, ...this.since]);
  }

  leave(listener: FeedListener): void {
    this.listeners.delete(listener);
  }

  private received(messages: readonly FeedMessage[]): void {
    for (const message of messages) {
      if (message.name === 'snapshot') {
        this.snapshot = message;
        this.since = [];
      } else if (this.snapshot) this.since.push(message);
    }
    for (const listener of this.listeners) listener.events(messages);
    if (this.since.length > REPLAY_MAX) void this.readSnapshot(false);
  }

  private stateChanged(state: FeedState): void {
    this.state = state;
    for (const listener of this.listeners) listener.state(state);
    // Refused a stream, the tabs still show the state of things, and the stream resumes after it.
    if (state.phase === 'refused' && !this.snapshot) void this.readSnapshot(true);
  }

  /**
   * Reads a snapshot on its own: `share`d with the tabs when they have none (no stream to be
   * had), else kept only as the newer start of the replay, with the events after it.
   */
  private readSnapshot(share: boolean): Promise<void> {
    this.reading ??= (async () => {
      try {
        const answer = await fetch(SNAPSHOT_URL, { headers: { accept: 'application/json' }, cache: 'no-store' });
        if (!answer.ok) return;
        const page = (await answer.json()) as SnapshotPage;
        const message: FeedMessage = { id: page.id, name: 'snapshot', data: page.snapshot };
        const taken = idParts(page.id);
        if (share) {
          if (this.snapshot) return;
          this.snapshot = message;
          this.since = [];
          this.stream.resumeAfter(page.id);
          for (const listener of this.listeners) listener.events([message]);
          return;
        }
        // A snapshot of another sandbox (restarted meanwhile) replaces nothing: the stream will bring its own.
        if (!this.snapshot || idParts(this.snapshot.id).epoch !== taken.epoch) return;
        this.snapshot = message;
        this.since = this.since.filter((event) => idParts(event.id).seq > taken.seq);
      } catch {
        // The sandbox did not answer: the stream's own state says so.
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
