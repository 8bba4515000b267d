import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { allowedHostList, type AllowedHosts } from './http/allowed-hosts.ts';
import { packagedConsole } from './package/console-folder.ts';
import { ConsoleFeed } from './console/feed.ts';
import { keyScrubber } from './console/scrub.ts';
import { redactorFor } from '../shared/redact.ts';
import { subscriptionRow } from './console/rows.ts';
import { SandboxClock, type ClockOptions } from './clock.ts';
import { FaultList, parseFault, type Fault } from './faults/fault-list.ts';
import { DeliveryQueue, type DeliveryAttempt, type FailedDelivery } from './delivery/delivery-queue.ts';
import { OnCallWatcher } from './delivery/on-call-watcher.ts';
import { readStateFile, restoreState, snapshotState, stateFileWriter, type PendingDelivery } from './delivery/state-file.ts';
import type { RateLimitOptions } from './plugins/rate-limit.ts';
import { demoSeed } from './seed/demo.ts';
import { parseSeed } from './seed/load.ts';
import type { Seed } from './seed/schema.ts';
import { WorldState, type World } from './world/world.ts';

export { demoKeys, demoSeed } from './seed/demo.ts';
export { parseSeed, readSeedFile, SeedError } from './seed/load.ts';
export { scaleKey, scaleSeed, type ScaleSeedOptions } from './seed/scale.ts';
export type { Seed, ValidSeed } from './seed/schema.ts';
export type { Fault } from './faults/fault-list.ts';
export type { DeliveryAttempt, DeliveryOutcome, FailedDelivery } from './delivery/delivery-queue.ts';
export type { OnCallChangedEvent } from './delivery/on-call-watcher.ts';
export { StateFileError } from './delivery/state-file.ts';
export type { PendingDelivery, PersistedState } from './delivery/state-file.ts';
export type { World } from './world/world.ts';
export type { AllowedHosts } from './http/allowed-hosts.ts';
export type { Incident, Organization, Person, Rotation, Subscription, Team } from './world/records.ts';

export interface SandboxOptions {
  /** Default: the demo seed (`sandbox/seeds/demo.json`). Checked; a bad seed rejects with a SeedError naming the field. */
  seed?: Seed;
  /** Default: fixed at the seed's `clockStart`. */
  clock?: ClockOptions;
  /** Per API key. Default 600 requests per minute. */
  rateLimit?: RateLimitOptions | false;
  /**
   * Default: 5 s per attempt, retries after 1 s, 5 s and 30 s, at most 16 attempts in flight
   * at once across all subscriptions (each subscription's retries keep their own schedule).
   * An attempt unanswered after `slowLaneAfterMs` (100 ms) gives its slot up and waits out its
   * time-out in a slow lane of `slowLaneSize` (256) places, so hanging targets cannot hold back
   * the others; `slowLaneSize: 0` turns that off.
   */
  delivery?: { timeoutMs?: number; retryDelaysMs?: number[]; concurrency?: number; slowLaneAfterMs?: number; slowLaneSize?: number };
  /**
   * Keep subscriptions, id counters, each team's last known on-call set and the pending
   * deliveries in this JSON file, rewritten atomically after every change; a sandbox created
   * on the same file picks them up and resumes the deliveries with the same event ids and
   * bodies. A new event and its deliveries are in the file before the first attempt leaves
   * (write-ahead), so even a crash (SIGKILL) right after cannot make an id name two changes.
   * A file that cannot be read or used rejects with a StateFileError naming it.
   * Default: nothing is written anywhere.
   */
  persistence?: { file: string };
  /** The keyless /_sandbox control routes. Default true. */
  controls?: boolean;
  /**
   * Every route answers only a request whose Host names the sandbox: `localhost`, a name under
   * `.localhost`, a loopback address or the address the request reached, each with the
   * sandbox's port, or a name given here (exact, or `.example.com` for it and every name
   * under it), on any port; anything else (a DNS-rebinding page) gets 403. `true` answers any
   * Host: unsafe, any web page open in a browser on this machine can then use the sandbox.
   * Default: none more, or `true` when `console.allowRemote` is set (as before the rule covered
   * every route).
   */
  allowedHosts?: AllowedHosts;
  /**
   * The live console at `/` (with the controls only). `assetsDir`: its prebuilt files
   * (`buildConsoleAssets`); without it the page is built in memory on first use. `allowRemote`:
   * serve it and the controls to requests from other machines too (and, unless `allowedHosts`
   * is given, any Host). `false` turns it off. Default on.
   */
  console?: { assetsDir?: string; allowRemote?: boolean } | false;
  /** Fastify's logger. Default false. */
  logger?: boolean;
}

export interface Sandbox {
  readonly app: FastifyInstance;
  /** Resolves to the API base URL, e.g. `http://127.0.0.1:4010`; the rotations base is that plus `/pagerly`. */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /**
   * Stops the clock timer, stops delivering (aborting attempts in flight), closes the server.
   * Pending deliveries are abandoned, or, with `persistence`, left in the file for the next start.
   */
  close(): Promise<void>;
  /**
   * Ends the console's event streams now. A stop calls it first: an open console tab is a
   * request that never ends by itself, and must not hold a drain to its deadline.
   */
  endStreams(): void;
  /** `set` and `advance` run the on-call change check, which may enqueue hook deliveries. */
  readonly clock: { now(): Date; set(at: string | Date): Promise<void>; advance(ms: number): Promise<void> };
  readonly faults: { inject(fault: Fault): void; clear(): void };
  readonly deliveries: { idle(): Promise<void>; readonly log: readonly DeliveryAttempt[]; readonly failed: readonly FailedDelivery[] };
  readonly world: World;
  checkOnCallChanges(): Promise<void>;
  /**
   * With `persistence`, what the file gave back at start: how many pending deliveries were
   * resumed, and the orphans, pending deliveries whose subscription is not in the file. Those
   * are not delivered; they stay in the file, to be reported at every start until their
   * subscription is put back (then they go out) or they are removed from it.
   */
  readonly kept: { readonly resumed: number; readonly orphans: readonly PendingDelivery[] } | undefined;
}

const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 600, windowMs: 60_000 };
/** What `delivery` options not given are (the bench reads them to say what ran). */
export const deliveryDefaults = { timeoutMs: 5_000, retryDelaysMs: [1_000, 5_000, 30_000], concurrency: 16, slowLaneAfterMs: 100, slowLaneSize: 256 } as const;
/** How often a real clock looks for handovers. */
const REAL_CLOCK_CHECK_MS = 1_000;

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const allowedHosts = allowedHostsOf(options);
  const seed = options.seed === undefined ? demoSeed : parseSeed(options.seed, 'The seed given to createSandbox');
  const kept = options.persistence === undefined ? undefined : readStateFile(options.persistence.file);
  const world = WorldState.fromSeed(seed);
  const clock = new SandboxClock(options.clock ?? { mode: 'fixed' }, seed.clockStart);
  const deliveries = new DeliveryQueue(
    {
      timeoutMs: options.delivery?.timeoutMs ?? deliveryDefaults.timeoutMs,
      retryDelaysMs: options.delivery?.retryDelaysMs ?? deliveryDefaults.retryDelaysMs,
      concurrency: options.delivery?.concurrency ?? deliveryDefaults.concurrency,
      slowLaneAfterMs: options.delivery?.slowLaneAfterMs ?? deliveryDefaults.slowLaneAfterMs,
      slowLaneSize: options.delivery?.slowLaneSize ?? deliveryDefaults.slowLaneSize,
    },
    { isSubscribed: (id) => world.subscriptions.has(id), remove: (id) => world.removeSubscription(id) },
  );
  const watcher = new OnCallWatcher(world, clock, deliveries);
  const faults = new FaultList();
  const persisted = options.persistence === undefined ? undefined : await keepStateIn(options.persistence.file, kept, { world, watcher, deliveries });
  const stateFile = persisted?.writer;

  const seedKeys = seed.organizations.flatMap((org) => org.apiKeys.map(({ key }) => key));
  const feed = options.console === false ? undefined : consoleFeedOf(world, watcher, deliveries, faults, seedKeys);
  const app = await buildApp({
    state: { world, clock, watcher, faults },
    ...(feed && options.console !== false ? { console: { ...packagedConsole(), ...options.console, feed } } : {}),
    ...(stateFile ? { beforeReply: () => stateFile.flush() } : {}),
    rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    controls: options.controls ?? true,
    allowedHosts,
    logger: options.logger ?? false,
  });
  await app.ready();

  // A fixed clock only moves when told, and telling it runs the check; a real one needs a timer.
  const handoverTimer = clock.mode === 'real' ? setInterval(() => watcher.check(), REAL_CLOCK_CHECK_MS).unref() : undefined;
  let closing: Promise<void> | undefined;

  return {
    app,
    async listen({ port = 0, host = '127.0.0.1' } = {}) {
      await app.listen({ port, host });
      const address = app.server.address() as AddressInfo;
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    },
    endStreams() {
      feed?.closeAll();
    },
    close() {
      closing ??= (async () => {
        clearInterval(handoverTimer);
        await deliveries.stop();
        await app.close();
        try {
          await stateFile?.close();
        } finally {
          await deliveries.close();
        }
      })();
      return closing;
    },
    clock: {
      now: () => clock.now(),
      async set(at) {
        clock.set(at);
        watcher.check();
      },
      async advance(ms) {
        clock.advance(ms);
        watcher.check();
      },
    },
    faults: {
      inject: (fault) => faults.inject(parseFault(fault)),
      clear: () => faults.clear(),
    },
    deliveries: {
      idle: () => deliveries.idle(),
      get log() {
        return deliveries.log;
      },
      get failed() {
        return deliveries.failed;
      },
    },
    world,
    async checkOnCallChanges() {
      watcher.check();
    },
    kept: persisted && {
      resumed: (kept?.pending.length ?? 0) - persisted.orphans.length,
      orphans: persisted.orphans.map(({ event: _event, ...orphan }) => orphan),
    },
  };
}

/** The `allowedHosts` option checked, or its default: `allowRemote` alone keeps meaning "any Host". */
function allowedHostsOf({ allowedHosts, console }: SandboxOptions): AllowedHosts {
  if (allowedHosts === true) return true;
  if (allowedHosts === undefined) return console && console.allowRemote === true ? true : [];
  if (!Array.isArray(allowedHosts)) throw new TypeError('allowedHosts: give a list of host names, or true for any Host');
  return allowedHostList(allowedHosts);
}

/** The console's feed, told of every on-call change and delivery attempt as they happen. */
function consoleFeedOf(world: WorldState, watcher: OnCallWatcher, deliveries: DeliveryQueue, faults: FaultList, seedKeys: readonly string[]): ConsoleFeed {
  const feed = new ConsoleFeed(
    keyScrubber(seedKeys, (text) => world.authenticate(text) !== undefined),
    redactorFor(seedKeys),
  );
  const scrub = (url: string) => feed.scrub(url);
  watcher.onEvent = (event, hooks) => feed.onCallChanged(event, hooks);
  deliveries.onAttempt = (report) => {
    feed.attempted(report);
    const subscription = report.next === 'removed' ? world.subscriptions.get(report.subscriptionId) : undefined;
    if (subscription) feed.subscription(subscriptionRow(world, subscription, 'removed-410', scrub));
  };
  faults.onChange = (pending) => feed.faults(pending.map(({ method, path, status, remaining }) => ({ method: method ?? null, path, status, remaining })));
  return feed;
}

/**
 * Puts back what the file kept (deliveries resume at once), then keeps the file up to date,
 * new deliveries written ahead of their first attempt. The first write happens here, so an
 * unwritable place fails now, not at the first change.
 */
async function keepStateIn(file: string, kept: ReturnType<typeof readStateFile>, parts: Omit<Parameters<typeof snapshotState>[0], 'orphans'>) {
  const orphans = kept ? restoreState(file, kept, parts) : [];
  const writer = stateFileWriter(file, () => snapshotState({ ...parts, orphans }));
  parts.world.onChange = () => writer.changed(true);
  parts.watcher.onChange = () => writer.changed(true);
  parts.deliveries.onChange = (change) => writer.changed(change === 'added');
  parts.deliveries.keep = () => writer.flush();
  writer.changed(true);
  try {
    await writer.flush();
  } catch (error) {
    await parts.deliveries.close();
    throw error;
  }
  return { writer, orphans };
}
