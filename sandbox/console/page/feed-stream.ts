// The console's live feed as one reader holds it: fetch and eventsource-parser rather than
// EventSource, because EventSource gives up for good on a refusal and never says why, and the
// sandbox refuses a stream with a reason (503 when all its streams are taken, by other
// browsers or programs). This reader reads the reason, says it, and tries again by itself,
// sooner at first and then every 10 s at most, resuming after the last event it had.
import { createParser } from 'eventsource-parser';
import type { FeedEventName } from '../messages.ts';
import { errorText } from '../../../shared/schemas/error-body.ts';

export const EVENTS_URL = '/_sandbox/console/events';

/** One event of the feed, its data parsed. */
export interface FeedMessage {
  readonly id: string;
  readonly name: FeedEventName;
  readonly data: unknown;
}

export type FeedState =
  | { readonly phase: 'connecting' }
  | { readonly phase: 'live' }
  /** The sandbox answered, but not with a stream: its reason (all streams taken, not on loopback). */
  | { readonly phase: 'refused'; readonly reason: string }
  /** The sandbox did not answer, or the stream broke off. */
  | { readonly phase: 'lost' };

export interface FeedStreamHandlers {
  /** Events in the order sent, a batch for each piece of the stream read. */
  events(messages: FeedMessage[]): void;
  state(state: FeedState): void;
}

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10_000;
/** The sandbox sends a comment every 15 s: a stream silent for longer has died unnoticed (a laptop asleep, a proxy). */
const SILENT_MS = 45_000;
const LONGEST_REASON = 500;

/** 1, 2, 4, 8, then 10 s, each ±20%, so tabs of many browsers do not come back at once. */
const backoff = (failures: number) => Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1)) * (0.8 + Math.random() * 0.4);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a refusal says: the service's error shape (`[{"Error": "…"}]`), else the status. */
async function reasonOf(answer: Response): Promise<string> {
  const text = await answer.text().catch(() => '');
  try {
    const said = errorText(JSON.parse(text));
    if (said !== undefined) return said.slice(0, LONGEST_REASON);
  } catch {
    // Not the error shape: the status says what there is to say.
  }
  return `the sandbox answered ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''} instead of a stream`;
}

/** `Retry-After` in seconds, as milliseconds (0 when absent or a date). */
function retryAfterMs(answer: Response): number {
  const value = answer.headers.get('retry-after');
  return value && /^\d{1,6}$/.test(value.trim()) ? Number(value) * 1_000 : 0;
}

/** One reader of the feed, reconnecting until closed. */
export class FeedStream {
  private lastEventId: string | undefined;
  private closed = false;
  private current: AbortController | undefined;
  private readonly handlers: FeedStreamHandlers;

  constructor(handlers: FeedStreamHandlers) {
    this.handlers = handlers;
    void this.run();
  }

  /** The next stream resumes after this event (a snapshot read on its own is as of it). */
  resumeAfter(id: string): void {
    this.lastEventId = id;
  }

  close(): void {
    this.closed = true;
    this.current?.abort();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const { delivered, waitMs } = await this.readOnce();
      if (this.closed) return;
      failures = delivered ? 1 : failures + 1;
      await sleep(Math.max(backoff(failures), waitMs));
    }
  }

  /** Opens one stream and reads it to its end; what it delivered, and how long the sandbox asked to wait. */
  private async readOnce(): Promise<{ delivered: boolean; waitMs: number }> {
    const abort = new AbortController();
    this.current = abort;
    let answer: Response;
    try {
      answer = await fetch(EVENTS_URL, {
        headers: { accept: 'text/event-stream', ...(this.lastEventId === undefined ? {} : { 'last-event-id': this.lastEventId }) },
        cache: 'no-store',
        signal: abort.signal,
      });
    } catch {
      if (!this.closed) this.handlers.state({ phase: 'lost' });
      return { delivered: false, waitMs: 0 };
    }
    if (!answer.ok || !answer.body || !(answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      this.handlers.state({ phase: 'refused', reason: await reasonOf(answer) });
      return { delivered: false, waitMs: retryAfterMs(answer) };
    }
    this.handlers.state({ phase: 'live' });
    return { delivered: await this.read(answer.body, abort), waitMs: 0 };
  }

  private async read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<boolean> {
    let delivered = false;
    const batch: FeedMessage[] = [];
    const parser = createParser({
      onEvent: (event) => {
        if (event.id !== undefined) this.lastEventId = event.id;
        if (event.event === undefined) return;
        try {
          batch.push({ id: event.id ?? '', name: event.event as FeedEventName, data: JSON.parse(event.data) });
        } catch {
          // Not JSON: not an event of this sandbox's.
        }
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let silence = setTimeout(() => abort.abort(), SILENT_MS);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), SILENT_MS);
        parser.feed(decoder.decode(value, { stream: true }));
        if (batch.length > 0) {
          delivered = true;
          this.handlers.events(batch.splice(0));
        }
      }
    } catch {
      // Aborted (closed, or silent too long) or broken off: the loop tries again.
    } finally {
      clearTimeout(silence);
      abort.abort();
    }
    if (!this.closed) this.handlers.state({ phase: 'lost' });
    return delivered;
  }
}
