// Part 2: one on-call change fanned out to many hook subscriptions, timed from the change to
// the last delivery in at the receiver, so it shows what the delivery queue does at scale.
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { startHookReceiver, type Received } from './hook-receiver.ts';
import { percentile, round } from './stats.ts';

export interface FanOutSettings {
  subscriptions: number;
  /** Passed as `delivery.concurrency`; whether the sandbox honours it is read off its fetch calls. */
  concurrency: number;
  /** The whole fan-out must be in by then, or the run fails instead of hanging. */
  timeoutMs: number;
}

export interface FanOutFigures {
  subscriptions: number;
  delivered: number;
  eventId: string | null;
  /** From the clock change to the last delivery received. */
  msToAll: number;
  /** From the clock change to the sandbox's queue reporting idle. */
  msToIdle: number;
  deliveriesPerSecond: number;
  /** When deliveries arrived, ms after the change. */
  arrivalMs: { first: number; p50: number; p90: number; p99: number; last: number };
  concurrency: { passed: number; peakInFlight: number; honoured: boolean; connectionsOpened: number };
  problems: string[];
}

const HOUR = 3_600_000;
/** Parallel subscribe calls while setting up; setup is not measured, only kept short. */
const SETUP_PARALLELISM = 16;

export async function measureFanOut(settings: FanOutSettings): Promise<FanOutFigures> {
  // `delivery.concurrency` came with bounded fan-out while this was written. Handed over in a
  // variable, not a literal, it type-checks with or without the option (no excess-property
  // check); a sandbox without it ignores it, and the peak in flight below tells which ran.
  // No retries: a failed delivery then shows as a failure here, not as a 1 s or 30 s wait.
  const delivery = { retryDelaysMs: [] as number[], concurrency: settings.concurrency };
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false, delivery });
  const receiver = await startHookReceiver();
  const problems: string[] = [];
  let inFlight: ReturnType<typeof countFetchesInFlight> | undefined;
  try {
    const url = await sandbox.listen({ host: '127.0.0.1' });
    const paths = Array.from({ length: settings.subscriptions }, (_, i) => `/hooks/${String(i + 1).padStart(4, '0')}`);
    await subscribeAll(url, paths.map((path) => receiver.url(path)));
    if (sandbox.world.subscriptions.size !== paths.length) problems.push(`${sandbox.world.subscriptions.size} subscriptions registered, not ${paths.length}`);

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
    const idleAt = ended === 'timeout' ? Number.NaN : await idle;
    deadline.abort();
    inFlight.restore();
    if (ended === 'timeout') problems.push(`only ${receiver.received.length} of ${paths.length} deliveries within ${settings.timeoutMs / 1000} s`);

    const arrivals = receiver.received.map((r) => r.at - started);
    const msToAll = arrivals.length ? Math.max(...arrivals) : Number.NaN;
    problems.push(...checkDeliveries(paths, receiver.received, sandbox.deliveries.failed.length));
    const eventIds = new Set(receiver.received.map((r) => r.headerEventId));

    return {
      subscriptions: paths.length,
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
        peakInFlight: inFlight.peak,
        // No fetch seen at all means the sandbox no longer sends with global fetch: unknown, not honoured.
        honoured: inFlight.calls > 0 && inFlight.peak <= settings.concurrency,
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
    get peak() { return peak; },
    get calls() { return calls; },
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
