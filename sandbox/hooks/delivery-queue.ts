import { EVENT_ID_HEADER } from '../../shared/schemas/on-call-change-event.ts';

export type DeliveryOutcome = 'delivered' | 'gone' | 'failed-status' | 'network-error' | 'timeout';

export interface DeliveryAttempt {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
  readonly outcome: DeliveryOutcome;
  readonly status?: number;
}

export interface FailedDelivery {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  readonly attempts: number;
  readonly lastOutcome: DeliveryOutcome;
  readonly event: HookEvent;
}

export interface HookEvent {
  readonly id: string;
}

/**
 * One event on its way to one subscription. Plain data on purpose: the pending jobs are the
 * whole state of the queue, so they can be written down and picked up after a restart.
 */
export interface DeliveryJob {
  readonly event: HookEvent;
  readonly subscriptionId: string;
  readonly url: string;
  /** The attempt to make next: 1 for the first try, 2 for the first retry, ... */
  nextAttempt: number;
  /** Wall-clock time (ms since the epoch) the next attempt is due; in the past while it is in flight. */
  dueAt: number;
}

export interface DeliveryOptions {
  timeoutMs: number;
  /** Wait before each retry; one retry per entry, then the delivery counts as failed. */
  retryDelaysMs: readonly number[];
  /** Attempts in flight at once, across all subscriptions. */
  concurrency: number;
}

/** What the queue needs to know about subscriptions, without knowing the world. */
export interface SubscriptionRegistry {
  isSubscribed(subscriptionId: string): boolean;
  /** The receiver answered 410 Gone: it wants no more events (assumption `hook-delivery`). */
  remove(subscriptionId: string): void;
}

const USER_AGENT = 'pagerly-sandbox';

/**
 * At-least-once hook delivery (assumption `hook-delivery`): every attempt of an event sends
 * the same id and body; failures are retried after the configured delays; 410 removes the
 * subscription; what still fails after the last retry is kept in `failed`.
 *
 * Each job keeps its own schedule (a timer per waiting retry); jobs that are due wait in one
 * first-come queue for one of `concurrency` slots, so a fan-out to many subscriptions runs
 * side by side without ever opening an unbounded number of requests, and a receiver that
 * hangs holds one slot for at most `timeoutMs` while the others go on.
 */
export class DeliveryQueue {
  readonly log: DeliveryAttempt[] = [];
  readonly failed: FailedDelivery[] = [];
  /** Told after every change of the pending jobs: new ones (`added`), or a retry scheduled or a job finished (`progress`). */
  onChange: (change: 'added' | 'progress') => void = () => {};
  private readonly jobs = new Set<DeliveryJob>();
  private readonly retryTimers = new Map<DeliveryJob, NodeJS.Timeout>();
  /** Due jobs waiting for a slot, oldest first; `readyHead` is the first not yet taken. */
  private ready: DeliveryJob[] = [];
  private readyHead = 0;
  private readonly attemptsInFlight = new Set<Promise<void>>();
  /** Aborts what is in flight; after it, jobs are kept (for a state file) but none is started. */
  private readonly stopping = new AbortController();
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly options: DeliveryOptions;
  private readonly subscriptions: SubscriptionRegistry;

  constructor(options: DeliveryOptions, subscriptions: SubscriptionRegistry) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`delivery.concurrency must be a whole number of at least 1, not ${options.concurrency}`);
    }
    this.options = options;
    this.subscriptions = subscriptions;
  }

  /** Deliveries not finished yet: waiting for a retry, for a slot, or in flight. */
  get pending(): readonly DeliveryJob[] {
    return [...this.jobs];
  }

  /** Attempts in flight right now (never more than `concurrency`). */
  get inFlight(): number {
    return this.attemptsInFlight.size;
  }

  enqueue(event: HookEvent, subscriptions: readonly { id: string; url: string }[]): void {
    const now = Date.now();
    this.add(subscriptions.map((subscription) => ({ event, subscriptionId: subscription.id, url: subscription.url, nextAttempt: 1, dueAt: now })));
  }

  /** Picks up jobs kept from before a restart: due ones at once, the others at their time. */
  resume(jobs: readonly DeliveryJob[]): void {
    this.add(jobs.map((job) => ({ ...job })));
  }

  /** Resolves once nothing is in flight, waiting for a slot or waiting for a retry. */
  idle(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops delivering: retries are cancelled and requests in flight aborted. The jobs stay
   * pending, as they were before their attempt (an aborted attempt has no outcome), so they
   * can be written down; events raised from now on are kept pending too.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    this.ready = [];
    this.readyHead = 0;
    await Promise.allSettled(this.attemptsInFlight);
  }

  /** Abandons what is pending (after `stop`): `pending` is empty and `idle()` resolves. */
  async close(): Promise<void> {
    await this.stop();
    this.closed = true;
    this.jobs.clear();
    this.wakeIdleWaiters();
  }

  private add(jobs: readonly DeliveryJob[]): void {
    if (this.closed || jobs.length === 0) return;
    for (const job of jobs) {
      this.jobs.add(job);
      if (!this.stopping.signal.aborted) this.schedule(job);
    }
    this.onChange('added');
    this.pump();
  }

  private schedule(job: DeliveryJob): void {
    const wait = job.dueAt - Date.now();
    if (wait <= 0) {
      this.ready.push(job);
      return;
    }
    this.retryTimers.set(job, setTimeout(() => {
      this.retryTimers.delete(job);
      this.ready.push(job);
      this.pump();
    }, wait));
  }

  /** Starts due jobs while there is a free slot. */
  private pump(): void {
    while (this.attemptsInFlight.size < this.options.concurrency && this.readyHead < this.ready.length && !this.stopping.signal.aborted) {
      const job = this.ready[this.readyHead]!;
      this.readyHead += 1;
      // Unsubscribed (or gone) while waiting: nobody wants it any more, and it takes no slot.
      if (!this.subscriptions.isSubscribed(job.subscriptionId)) {
        this.finish(job);
        continue;
      }
      const attempt = this.attempt(job).finally(() => {
        this.attemptsInFlight.delete(attempt);
        this.pump();
      });
      this.attemptsInFlight.add(attempt);
    }
    // Drop the taken part of the queue now and then, so it does not grow without end.
    if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    const attempt = job.nextAttempt;
    const { outcome, status } = await this.post(job);
    // Stopped meanwhile: the job stays as it was, to be tried again after a restart.
    if (this.stopping.signal.aborted) return;

    this.log.push({ eventId: job.event.id, subscriptionId: job.subscriptionId, url: job.url, attempt, outcome, ...(status === undefined ? {} : { status }) });
    if (outcome === 'delivered') return this.finish(job);
    if (outcome === 'gone') {
      this.subscriptions.remove(job.subscriptionId);
      return this.finish(job);
    }

    const delay = this.options.retryDelaysMs[attempt - 1];
    if (delay === undefined) {
      this.failed.push({ eventId: job.event.id, subscriptionId: job.subscriptionId, url: job.url, attempts: attempt, lastOutcome: outcome, event: job.event });
      return this.finish(job);
    }
    job.nextAttempt = attempt + 1;
    job.dueAt = Date.now() + delay;
    this.schedule(job);
    this.onChange('progress');
  }

  private async post(job: DeliveryJob): Promise<{ outcome: DeliveryOutcome; status?: number }> {
    // Kept apart so a timeout is told from other failures by the signal, not by the error's class.
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await fetch(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [EVENT_ID_HEADER]: job.event.id, 'user-agent': USER_AGENT },
        body: JSON.stringify(job.event),
        // A redirect is an answer we do not follow: hook URLs are given as they are to be called.
        redirect: 'manual',
        signal: AbortSignal.any([timeout, this.stopping.signal]),
      });
      // Only the status matters; dropping the body frees the connection.
      await response.body?.cancel().catch(() => undefined);
      const { status } = response;
      if (status >= 200 && status < 300) return { outcome: 'delivered', status };
      return { outcome: status === 410 ? 'gone' : 'failed-status', status };
    } catch {
      return { outcome: timeout.aborted ? 'timeout' : 'network-error' };
    }
  }

  private finish(job: DeliveryJob): void {
    if (!this.jobs.delete(job)) return;
    this.onChange('progress');
    if (this.jobs.size === 0) this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
