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
  attemptsMade: number;
}

export interface DeliveryOptions {
  timeoutMs: number;
  /** Wait before each retry; one retry per entry, then the delivery counts as failed. */
  retryDelaysMs: readonly number[];
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
 */
export class DeliveryQueue {
  readonly log: DeliveryAttempt[] = [];
  readonly failed: FailedDelivery[] = [];
  private readonly jobs = new Set<DeliveryJob>();
  private readonly retryTimers = new Map<DeliveryJob, NodeJS.Timeout>();
  private readonly attemptsInFlight = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private idleWaiters: (() => void)[] = [];
  private readonly options: DeliveryOptions;
  private readonly subscriptions: SubscriptionRegistry;

  constructor(options: DeliveryOptions, subscriptions: SubscriptionRegistry) {
    this.options = options;
    this.subscriptions = subscriptions;
  }

  /** Deliveries not finished yet, waiting for a retry or in flight. */
  get pending(): readonly DeliveryJob[] {
    return [...this.jobs];
  }

  enqueue(event: HookEvent, subscriptions: readonly { id: string; url: string }[]): void {
    if (this.closing.signal.aborted) return;
    for (const subscription of subscriptions) {
      const job: DeliveryJob = { event, subscriptionId: subscription.id, url: subscription.url, attemptsMade: 0 };
      this.jobs.add(job);
      this.start(job);
    }
  }

  /** Resolves once nothing is in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Abandons what is pending: retries are cancelled and requests in flight aborted. */
  async close(): Promise<void> {
    this.closing.abort();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    await Promise.allSettled(this.attemptsInFlight);
    this.jobs.clear();
    this.wakeIdleWaiters();
  }

  private start(job: DeliveryJob): void {
    this.retryTimers.delete(job);
    const attempt = this.attempt(job).finally(() => this.attemptsInFlight.delete(attempt));
    this.attemptsInFlight.add(attempt);
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    if (this.closing.signal.aborted) return;
    // Unsubscribed (or gone) while waiting for a retry: nobody wants it any more.
    if (!this.subscriptions.isSubscribed(job.subscriptionId)) return this.finish(job);

    job.attemptsMade += 1;
    const { outcome, status } = await this.post(job);
    if (this.closing.signal.aborted) return;

    this.log.push({ eventId: job.event.id, subscriptionId: job.subscriptionId, url: job.url, attempt: job.attemptsMade, outcome, ...(status === undefined ? {} : { status }) });
    if (outcome === 'delivered') return this.finish(job);
    if (outcome === 'gone') {
      this.subscriptions.remove(job.subscriptionId);
      return this.finish(job);
    }

    const delay = this.options.retryDelaysMs[job.attemptsMade - 1];
    if (delay === undefined) {
      this.failed.push({ eventId: job.event.id, subscriptionId: job.subscriptionId, url: job.url, attempts: job.attemptsMade, lastOutcome: outcome, event: job.event });
      return this.finish(job);
    }
    this.retryTimers.set(job, setTimeout(() => this.start(job), delay));
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
        signal: AbortSignal.any([timeout, this.closing.signal]),
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
    this.jobs.delete(job);
    if (this.jobs.size === 0) this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
