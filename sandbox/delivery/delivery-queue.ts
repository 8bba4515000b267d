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

/** An attempt as it ended, with what follows it: the console's view of a delivery. */
export interface AttemptReport extends DeliveryAttempt {
  /** Wall-clock time (ms since the epoch) the attempt ended. */
  readonly at: number;
  /** What follows: another attempt at `nextAttemptAt`, nothing (delivered), the subscription removed (410), or given up. */
  readonly next: 'retry' | 'done' | 'removed' | 'failed';
  readonly nextAttemptAt?: number;
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
  /** Attempts in flight at once, across all subscriptions, not counting the slow lane. */
  concurrency: number;
  /**
   * An attempt still unanswered after `slowLaneAfterMs` leaves its slot for the slow lane, where
   * it waits out its time-out without holding back the others; at most `slowLaneSize` attempts
   * wait there at once (when it is full, a slow attempt keeps its slot until room is made). So
   * at most `concurrency + slowLaneSize` requests are ever open. 0 turns the slow lane off.
   */
  slowLaneAfterMs: number;
  slowLaneSize: number;
}

/** What the queue needs to know about subscriptions, without knowing the world. */
export interface SubscriptionRegistry {
  isSubscribed(subscriptionId: string): boolean;
  /** The receiver answered 410 Gone: it wants no more events (assumption `hook-delivery`). */
  remove(subscriptionId: string): void;
}

const USER_AGENT = 'pagerly-sandbox';
/** How soon jobs whose write-ahead failed are tried again. */
const KEEP_RETRY_MS = 1_000;

/** One attempt under way, and where it counts: a slot, the slow lane, or a slot it may leave. */
interface Running {
  done: Promise<void>;
  lane: 'slot' | 'slow';
  /** Past `slowLaneAfterMs` but kept in its slot because the slow lane was full. */
  overdue: boolean;
  timer: NodeJS.Timeout | undefined;
}

/**
 * At-least-once hook delivery (assumption `hook-delivery`): every attempt of an event sends
 * the same id and body; failures are retried after the configured delays; 410 removes the
 * subscription; what still fails after the last retry is kept in `failed`.
 *
 * Each job keeps its own schedule (a timer per waiting retry); jobs that are due wait in one
 * first-come queue for one of `concurrency` slots, so a fan-out to many subscriptions runs
 * side by side without ever opening an unbounded number of requests. A receiver that hangs
 * holds its slot only for `slowLaneAfterMs`, then waits out its time-out in the slow lane:
 * a few hanging targets cannot hold back the hundreds of others for a whole time-out.
 *
 * With `keep` set (a state file), new jobs are not attempted before `keep()` resolves
 * (write-ahead): a delivery is never seen outside before the event and its id are on disk,
 * so a crash right after cannot make the next start give that id to another change.
 */
export class DeliveryQueue {
  readonly log: DeliveryAttempt[] = [];
  readonly failed: FailedDelivery[] = [];
  /** Told after every change of the pending jobs: new ones (`added`), or a retry scheduled or a job finished (`progress`). */
  onChange: (change: 'added' | 'progress') => void = () => {};
  /** Told of every attempt's outcome and what follows it (the console's live feed). */
  onAttempt: (report: AttemptReport) => void = () => {};
  private readonly jobs = new Set<DeliveryJob>();
  private readonly retryTimers = new Map<DeliveryJob, NodeJS.Timeout>();
  /** Due jobs waiting for a slot, oldest first; `readyHead` is the first not yet taken. */
  private ready: DeliveryJob[] = [];
  private readyHead = 0;
  private readonly attemptsInFlight = new Set<Running>();
  /** Slot holders past `slowLaneAfterMs`, waiting for room in the slow lane, oldest first. */
  private overdueInSlots: Running[] = [];
  private slowLaneUsed = 0;
  /** Timers of write-aheads that failed, to be tried again after KEEP_RETRY_MS. */
  private readonly keepRetries = new Set<NodeJS.Timeout>();
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
    if (!Number.isInteger(options.slowLaneSize) || options.slowLaneSize < 0) {
      throw new RangeError(`delivery.slowLaneSize must be a whole number of at least 0, not ${options.slowLaneSize}`);
    }
    if (!Number.isFinite(options.slowLaneAfterMs) || options.slowLaneAfterMs < 0) {
      throw new RangeError(`delivery.slowLaneAfterMs must be a number of milliseconds of at least 0, not ${options.slowLaneAfterMs}`);
    }
    this.options = options;
    this.subscriptions = subscriptions;
  }

  /** Deliveries not finished yet: waiting for a retry, for a slot, or in flight. */
  get pending(): readonly DeliveryJob[] {
    return [...this.jobs];
  }

  /** Attempts in flight right now (never more than `concurrency + slowLaneSize`). */
  get inFlight(): number {
    return this.attemptsInFlight.size;
  }

  /**
   * Resolves once new jobs are kept where a restart finds them; set by a state file. Until then
   * they are pending (and in `pending`) but not attempted.
   */
  keep: (() => Promise<void>) | undefined;

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
    for (const timer of this.keepRetries) clearTimeout(timer);
    this.keepRetries.clear();
    this.ready = [];
    this.readyHead = 0;
    await Promise.allSettled([...this.attemptsInFlight].map((running) => running.done));
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
    for (const job of jobs) this.jobs.add(job);
    this.onChange('added');
    this.release(jobs);
  }

  /** Schedules the jobs once they are kept (at once without `keep`); a failed keep is tried again. */
  private release(jobs: readonly DeliveryJob[]): void {
    const start = () => {
      if (this.stopping.signal.aborted) return;
      for (const job of jobs) if (this.jobs.has(job)) this.schedule(job);
      this.pump();
    };
    if (this.keep === undefined) {
      start();
      return;
    }
    this.keep().then(start, () => {
      // Not kept, so not sent: held back (still pending) until a write succeeds.
      if (this.stopping.signal.aborted) return;
      const timer = setTimeout(() => {
        this.keepRetries.delete(timer);
        this.release(jobs);
      }, KEEP_RETRY_MS);
      this.keepRetries.add(timer);
    });
  }

  private schedule(job: DeliveryJob): void {
    const wait = job.dueAt - Date.now();
    if (wait <= 0) {
      this.ready.push(job);
      return;
    }
    this.retryTimers.set(
      job,
      setTimeout(() => {
        this.retryTimers.delete(job);
        this.ready.push(job);
        this.pump();
      }, wait),
    );
  }

  /** Starts due jobs while there is a free slot. */
  private pump(): void {
    while (this.slotsUsed() < this.options.concurrency && this.readyHead < this.ready.length && !this.stopping.signal.aborted) {
      const job = this.ready[this.readyHead]!;
      this.readyHead += 1;
      // Unsubscribed (or gone) while waiting: nobody wants it any more, and it takes no slot.
      if (!this.subscriptions.isSubscribed(job.subscriptionId)) {
        this.finish(job);
        continue;
      }
      this.start(job);
    }
    // Drop the taken part of the queue now and then, so it does not grow without end.
    if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
  }

  private slotsUsed(): number {
    return this.attemptsInFlight.size - this.slowLaneUsed;
  }

  private start(job: DeliveryJob): void {
    const running: Running = { done: Promise.resolve(), lane: 'slot', overdue: false, timer: undefined };
    if (this.options.slowLaneSize > 0) running.timer = setTimeout(() => this.overdue(running), this.options.slowLaneAfterMs);
    running.done = this.attempt(job).finally(() => {
      clearTimeout(running.timer);
      this.attemptsInFlight.delete(running);
      if (running.lane === 'slow') {
        this.slowLaneUsed -= 1;
        this.moveOverdueToSlowLane();
      } else if (running.overdue) {
        this.overdueInSlots = this.overdueInSlots.filter((other) => other !== running);
      }
      this.pump();
    });
    this.attemptsInFlight.add(running);
  }

  /** Unanswered for `slowLaneAfterMs`: off to the slow lane, freeing the slot, if there is room. */
  private overdue(running: Running): void {
    running.timer = undefined;
    if (!this.attemptsInFlight.has(running)) return;
    running.overdue = true;
    this.overdueInSlots.push(running);
    this.moveOverdueToSlowLane();
    this.pump();
  }

  private moveOverdueToSlowLane(): void {
    while (this.slowLaneUsed < this.options.slowLaneSize && this.overdueInSlots.length > 0) {
      const running = this.overdueInSlots.shift()!;
      running.lane = 'slow';
      this.slowLaneUsed += 1;
    }
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    const attempt = job.nextAttempt;
    const { outcome, status } = await this.post(job);
    // Stopped meanwhile: the job stays as it was, to be tried again after a restart.
    if (this.stopping.signal.aborted) return;

    const entry: DeliveryAttempt = {
      eventId: job.event.id,
      subscriptionId: job.subscriptionId,
      url: job.url,
      attempt,
      outcome,
      ...(status === undefined ? {} : { status }),
    };
    this.log.push(entry);
    const report = (next: AttemptReport['next'], nextAttemptAt?: number) =>
      this.onAttempt({ ...entry, at: Date.now(), next, ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }) });
    if (outcome === 'delivered') {
      report('done');
      return this.finish(job);
    }
    if (outcome === 'gone') {
      // Told first, so a listener still finds the subscription it is about.
      report('removed');
      this.subscriptions.remove(job.subscriptionId);
      return this.finish(job);
    }

    const delay = this.options.retryDelaysMs[attempt - 1];
    if (delay === undefined) {
      this.failed.push({ eventId: job.event.id, subscriptionId: job.subscriptionId, url: job.url, attempts: attempt, lastOutcome: outcome, event: job.event });
      report('failed');
      return this.finish(job);
    }
    job.nextAttempt = attempt + 1;
    job.dueAt = Date.now() + delay;
    report('retry', job.dueAt);
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
