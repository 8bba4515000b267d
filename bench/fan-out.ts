// Part 2: one on-call change fanned out to many hook subscriptions, timed from the change to
// the last delivery in at the receiver, so it shows what the delivery queue does at scale.
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandbox, deliveryDefaults, demoKeys } from '../sandbox/index.ts';
import { startHookReceiver, type Received } from './hook-receiver.ts';
import { percentile, round } from './stats.ts';

export interface FanOutSettings {
  subscriptions: number;
  /** Passed as `delivery.concurrency`; whether the sandbox honours it is read off its fetch calls. */
  concurrency: number;
  /**
   * How many of the subscriptions hang: their target takes the request and never answers. They
   * come first, the worst place for them; the figures are the others' (the good targets).
   */
  hanging: number;
  /** The whole fan-out must be in by then, or the run fails instead of hanging. */
  timeoutMs: number;
}

export interface FanOutFigures {
  subscriptions: number;
  /** Of the subscriptions, how many hang (not in `delivered` nor in the arrival times). */
  hanging: number;
  /** Requests the hanging targets took in, each under the one event id, and their time-outs in the sandbox. */
  hangingReached: number;
  hangingTimedOut: number;
  /** Per-attempt time-out of the sandbox, for reading `msToIdle` when some hang. */
  attemptTimeoutMs: number;
  delivered: number;
  eventId: string | null;
  /** From the clock change to the last delivery received by a good target. */
  msToAll: number;
  /** From the clock change to the sandbox's queue reporting idle. */
  msToIdle: number;
  deliveriesPerSecond: number;
  /** When deliveries arrived, ms after the change. */
  arrivalMs: { first: number; p50: number; p90: number; p99: number; last: number };
  /**
   * `bound`: the most attempts the sandbox may have open, `concurrency` plus its slow lane (an
   * attempt unanswered after a moment leaves its slot for the slow lane, which has a size too).
   */
  concurrency: { passed: number; slowLane: number; bound: number; peakInFlight: number; honoured: boolean; connectionsOpened: number };
  problems: string[];
}

const HOUR = 3_600_000;
/** Parallel subscribe calls while setting up; setup is not measured, only kept short. */
const SETUP_PARALLELISM = 16;

export async function measureFanOut(settings: FanOutSettings): Promise<FanOutFigures> {
  // No retries: a failed delivery then shows as a failure here, not as a 1 s or 30 s wait. The
  // per-attempt time-out is the sandbox's default, so a hanging target holds on as long as it would.
  const delivery = { retryDelaysMs: [] as number[], concurrency: settings.concurrency };
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false, delivery });
  const receiver = await startHookReceiver({ hangs: (path) => path.startsWith('/hang/') });
  const problems: string[] = [];
  let inFlight: ReturnType<typeof countFetchesInFlight> | undefined;
  try {
    const url = await sandbox.listen({ host: '127.0.0.1' });
    const number = (i: number) => String(i + 1).padStart(4, '0');
    const hangingPaths = Array.from({ length: settings.hanging }, (_, i) => `/hang/${number(i)}`);
    const paths = Array.from({ length: settings.subscriptions - settings.hanging }, (_, i) => `/hooks/${number(i)}`);
    await subscribeAll(
      url,
      [...hangingPaths, ...paths].map((path) => receiver.url(path)),
    );
    if (sandbox.world.subscriptions.size !== settings.subscriptions)
      problems.push(`${sandbox.world.subscriptions.size} subscriptions registered, not ${settings.subscriptions}`);

    // Platform hands over at 09:00; the clock starts at 08:00.
    inFlight = countFetchesInFlight();
    const started = performance.now();
    await sandbox.clock.advance(HOUR);
    const idle = sandbox.deliveries.idle().then(() => performance.now());
    const deadline = new AbortController();
    const ended = await Promise.race([
      receiver.whenReceived(paths.length).then(() => 'all' as const),
      // With retries off, idle before everything arrived means some deliveries failed.
      idle.then(() => 'idle' as const),
      sleep(settings.timeoutMs, 'timeout' as const, { signal: deadline.signal }).catch(() => 'cancelled' as const),
    ]);
    // The hanging ones end by the sandbox's time-out; waited for, so that their outcome is checked.
    const idleAt = ended === 'timeout' ? Number.NaN : await Promise.race([idle, sleep(settings.timeoutMs, Number.NaN)]);
    deadline.abort();
    inFlight.restore();
    if (ended === 'timeout') problems.push(`only ${receiver.received.length} of ${paths.length} deliveries within ${settings.timeoutMs / 1000} s`);

    const arrivals = receiver.received.map((r) => r.at - started);
    const msToAll = arrivals.length ? Math.max(...arrivals) : Number.NaN;
    const { failed } = sandbox.deliveries;
    const hangingTimedOut = failed.filter((f) => f.lastOutcome === 'timeout').length;
    problems.push(...checkDeliveries(paths, receiver.received, failed.length - hangingTimedOut));
    problems.push(...checkHanging(hangingPaths, receiver.hung, hangingTimedOut, receiver.received[0]?.headerEventId));
    const eventIds = new Set(receiver.received.map((r) => r.headerEventId));
    const bound = settings.concurrency + deliveryDefaults.slowLaneSize;

    return {
      subscriptions: settings.subscriptions,
      hanging: settings.hanging,
      hangingReached: receiver.hung.length,
      hangingTimedOut,
      attemptTimeoutMs: deliveryDefaults.timeoutMs,
      delivered: receiver.received.length,
      eventId: eventIds.size === 1 ? ([...eventIds][0] ?? null) : null,
      msToAll: round(msToAll, 1),
      msToIdle: round(idleAt - started, 1),
      deliveriesPerSecond: Math.round(receiver.received.length / (msToAll / 1000)),
      arrivalMs: {
        first: round(Math.min(...arrivals), 1),
        p50: round(percentile(arrivals, 50), 1),
        p90: round(percentile(arrivals, 90), 1),
        p99: round(percentile(arrivals, 99), 1),
        last: round(msToAll, 1),
      },
      concurrency: {
        passed: settings.concurrency,
        slowLane: deliveryDefaults.slowLaneSize,
        bound,
        peakInFlight: inFlight.peak,
        // No fetch seen at all means the sandbox no longer sends with global fetch: unknown, not honoured.
        honoured: inFlight.calls > 0 && inFlight.peak <= bound,
        connectionsOpened: receiver.connections,
      },
      problems,
    };
  } finally {
    inFlight?.restore();
    await sandbox.close();
    await receiver.close();
  }
}

/**
 * The receiver answers at once, so it never has more than one request open and cannot see the
 * sender's concurrency. The sandbox sends with the global fetch, so for the fan-out alone it is
 * wrapped to count the calls started and not yet answered (one increment and one decrement each).
 */
function countFetchesInFlight() {
  const original = globalThis.fetch;
  let inFlight = 0;
  let peak = 0;
  let calls = 0;
  const counting: typeof fetch = async (input, init) => {
    calls += 1;
    peak = Math.max(peak, ++inFlight);
    try {
      return await original(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  globalThis.fetch = counting;
  let restored = false;
  return {
    get peak() {
      return peak;
    },
    get calls() {
      return calls;
    },
    restore() {
      if (!restored) globalThis.fetch = original;
      restored = true;
    },
  };
}

/** Through the API, as Zapier would subscribe, a few at a time. */
async function subscribeAll(baseUrl: string, hookUrls: readonly string[]): Promise<void> {
  let next = 0;
  const subscriber = async () => {
    while (next < hookUrls.length) {
      const url = hookUrls[next++];
      const response = await fetch(`${baseUrl}/o/zapier/subscribe`, {
        method: 'POST',
        headers: { 'x-apikey': demoKeys.acmeAdmin, 'content-type': 'application/json' },
        body: JSON.stringify({ url, teamname: 'Platform' }),
      });
      if (response.status !== 201) throw new Error(`POST /o/zapier/subscribe answered ${response.status}: ${await response.text()}`);
      await response.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: SETUP_PARALLELISM }, subscriber));
}

/** Every hanging target took the event once, under the same id as the others, and timed out in the sandbox. */
function checkHanging(paths: readonly string[], hung: readonly Received[], timedOut: number, eventId: string | undefined): string[] {
  const problems: string[] = [];
  const reached = new Set(hung.map((r) => r.path));
  const missing = paths.filter((p) => !reached.has(p)).length;
  if (missing || hung.length !== paths.length) problems.push(`hanging targets: ${missing} never reached, ${hung.length} requests for ${paths.length} targets`);
  if (hung.some((r) => r.headerEventId !== eventId)) problems.push('a hanging target got another event id than the good ones');
  if (timedOut !== paths.length) problems.push(`${timedOut} deliveries timed out in the sandbox, not the ${paths.length} hanging ones`);
  return problems;
}

/** Every subscription got exactly one delivery, all of them the same Platform event. */
function checkDeliveries(paths: readonly string[], received: readonly Received[], failed: number): string[] {
  const problems: string[] = [];
  const perPath = new Map<string, number>();
  for (const r of received) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
  const missing = paths.filter((p) => !perPath.has(p)).length;
  const repeated = [...perPath.values()].filter((n) => n > 1).length;
  const expected = new Set(paths);
  const unknown = [...perPath.keys()].filter((p) => !expected.has(p)).length;
  if (missing || repeated || unknown) problems.push(`deliveries per subscription: ${missing} missing, ${repeated} more than once, ${unknown} to unknown paths`);
  const ids = new Set(received.map((r) => r.headerEventId));
  if (ids.size !== 1) problems.push(`${ids.size} different event ids: ${[...ids].slice(0, 5).join(', ')}`);
  const inconsistent = received.filter((r) => r.body?.id !== r.headerEventId || r.body?.type !== 'oncall.changed' || r.body.team?.name !== 'Platform').length;
  if (inconsistent) problems.push(`${inconsistent} deliveries whose body is not the Platform on-call change under the header's id`);
  if (failed) problems.push(`${failed} deliveries failed in the sandbox`);
  return problems;
}
