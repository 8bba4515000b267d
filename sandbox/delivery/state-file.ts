import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { onCallUser } from '../../shared/schemas/on-call-user.ts';
import type { OnCallUser } from '../../shared/schemas/on-call-user.ts';
import { check, describeProblems } from '../../shared/validation.ts';
import { AtomicFileWriter } from '../atomic-file-writer.ts';
import type { Subscription } from '../world/records.ts';
import type { WorldState } from '../world/world.ts';
import type { DeliveryJob, DeliveryQueue, HookEvent } from './delivery-queue.ts';
import { PLATFORMS } from '../world/records.ts';
import type { OnCallWatcher } from './on-call-watcher.ts';

/**
 * What a sandbox keeps across a restart (option `persistence`), so that no hook delivery is
 * lost and no id is handed out twice: the subscriptions, the id counters, each team's last
 * known on-call set, and the pending deliveries with their events. Everything else (people,
 * incidents, the clock) starts again from the seed and the clock options.
 */
export interface PersistedState {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  /** Wall-clock time of the write; for people reading the file. */
  readonly savedAt: string;
  /** The last number handed out per id kind, e.g. `{"sub": 3, "evt": 2}`. */
  readonly ids: Readonly<Record<string, number>>;
  readonly subscriptions: readonly Subscription[];
  /** Team id to the people last seen on call (the `previous` of that team's next event). */
  readonly onCall: Readonly<Record<string, readonly OnCallUser[]>>;
  /** Every event some pending delivery still has to send, by id, exactly as it is sent. */
  readonly events: Readonly<Record<string, HookEvent>>;
  readonly pending: readonly PendingDelivery[];
}

export interface PendingDelivery {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly nextAttempt: number;
  /** Wall-clock time the attempt is due (ISO 8601); in the past: at once. */
  readonly dueAt: string;
}

const FORMAT = 'pagerly-sandbox-state';
const VERSION = 1;

/** The state file cannot be read or used, or written. The message names the file. */
export class StateFileError extends Error {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(`Sandbox state file ${file}: ${message}`, options);
    this.name = 'StateFileError';
    this.file = file;
  }
}

const text = z.string().min(1, 'must be a non-empty string');
/**
 * ISO 8601 as `Date#toISOString` writes it, including its six-digit years (`+010000-01-01T…`):
 * the sandbox's clock stops at the end of 9999, but a real clock set just before may pass it,
 * and a file written then must still load.
 */
const isoTime = z.union(
  [
    z.iso.datetime({ offset: true }),
    z
      .string()
      .regex(/^[+-]\d{6}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
      .refine((time) => !Number.isNaN(Date.parse(time))),
  ],
  { error: 'must be an ISO 8601 time' },
);
const stateSchema = z.object({
  format: z.literal(FORMAT, { error: `must be "${FORMAT}"` }),
  version: z.literal(VERSION, { error: `must be ${VERSION} (this sandbox reads version ${VERSION} only)` }),
  savedAt: isoTime,
  ids: z.record(z.string(), z.number().int().nonnegative()),
  subscriptions: z.array(
    z.object({
      id: text,
      orgId: text,
      platform: z.enum(PLATFORMS),
      url: text,
      teamId: text.nullable(),
      created_at: isoTime,
    }),
  ),
  onCall: z.record(z.string(), z.array(onCallUser)),
  events: z.record(z.string(), z.looseObject({ id: text })),
  pending: z.array(
    z.object({
      eventId: text,
      subscriptionId: text,
      url: text,
      nextAttempt: z.number().int().min(1),
      dueAt: isoTime,
    }),
  ),
});

/** The state kept in `file`, or undefined when there is no such file yet (a first start). */
export function readStateFile(file: string): PersistedState | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(file, `cannot be read (${(error as Error).message})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new StateFileError(file, `is corrupt: not JSON (${(error as Error).message}). Fix it, or remove it to start afresh.`, { cause: error });
  }
  const checked = check(stateSchema, json);
  if (!checked.ok)
    throw new StateFileError(file, `is corrupt or not a sandbox state file: ${describeProblems(checked.problems)}. Fix it, or remove it to start afresh.`);
  const state = checked.value;
  for (const [id, event] of Object.entries(state.events)) {
    if (event.id !== id) throw new StateFileError(file, `is corrupt: events.${id} has the id "${event.id}"`);
  }
  for (const [n, job] of state.pending.entries()) {
    if (!(job.eventId in state.events)) throw new StateFileError(file, `is corrupt: pending.${n} names the event "${job.eventId}", which is not in events`);
  }
  // The events go out byte for byte as they were first sent: take them as read, not as checked
  // (the check may order keys its own way).
  const events = (json as { events: Record<string, HookEvent> }).events;
  return { ...state, events };
}

/** A pending delivery read from a state file, with its event. */
export interface KeptDelivery extends PendingDelivery {
  readonly event: HookEvent;
}

/**
 * Puts the kept state into a freshly seeded sandbox. Subscriptions must belong to the seed's
 * organizations and teams: a state file of another world is an error, not a silent loss.
 *
 * Returns the orphans: pending deliveries whose subscription is not in the file (a file edited
 * by hand, or merged from another). They are not delivered, since nobody asked for them at that
 * URL any more, and not dropped either: they are kept in the file as they are (see
 * `snapshotState`) and reported at every start, until someone puts their subscription back
 * (then they go out) or removes them. Dropping them would leave the start-up report as their
 * only trace.
 */
export function restoreState(
  file: string,
  state: PersistedState,
  parts: { world: WorldState; watcher: OnCallWatcher; deliveries: DeliveryQueue },
): KeptDelivery[] {
  const { world, watcher, deliveries } = parts;
  for (const subscription of state.subscriptions) {
    const team = subscription.teamId === null ? undefined : world.teams.get(subscription.teamId);
    if (!world.organizations.has(subscription.orgId) || (subscription.teamId !== null && team?.orgId !== subscription.orgId)) {
      const missing =
        subscription.teamId === null ? `organization "${subscription.orgId}"` : `team "${subscription.teamId}" of organization "${subscription.orgId}"`;
      throw new StateFileError(
        file,
        `does not fit the seed: subscription "${subscription.id}" is for the ${missing}, which the seed does not have. Use the seed it was written with, or remove the file.`,
      );
    }
  }
  world.ids.restore(state.ids);
  for (const subscription of state.subscriptions) world.restoreSubscription({ ...subscription });
  watcher.restore(state.onCall);
  const known = new Set(state.subscriptions.map((subscription) => subscription.id));
  const kept = state.pending.map((job): KeptDelivery => ({ ...job, event: state.events[job.eventId]! }));
  deliveries.resume(
    kept
      .filter((job) => known.has(job.subscriptionId))
      .map(
        (job): DeliveryJob => ({
          event: job.event,
          subscriptionId: job.subscriptionId,
          url: job.url,
          nextAttempt: job.nextAttempt,
          dueAt: Date.parse(job.dueAt),
        }),
      ),
  );
  return kept.filter((job) => !known.has(job.subscriptionId));
}

/**
 * The state to keep, as it is now. A job whose subscription was removed since (unsubscribed, or
 * 410) is over: the queue drops it when its turn comes, so it is not written. The orphans read
 * at start are written back as they were.
 */
export function snapshotState(parts: {
  world: WorldState;
  watcher: OnCallWatcher;
  deliveries: DeliveryQueue;
  orphans: readonly KeptDelivery[];
}): PersistedState {
  const pending = parts.deliveries.pending.filter((job) => parts.world.subscriptions.has(job.subscriptionId));
  const events: Record<string, HookEvent> = {};
  for (const job of pending) events[job.event.id] = job.event;
  for (const orphan of parts.orphans) events[orphan.eventId] = orphan.event;
  return {
    format: FORMAT,
    version: VERSION,
    savedAt: new Date().toISOString(),
    ids: parts.world.ids.snapshot(),
    subscriptions: [...parts.world.subscriptions.values()],
    onCall: parts.watcher.snapshot(),
    events,
    pending: [
      ...pending.map((job) => ({
        eventId: job.event.id,
        subscriptionId: job.subscriptionId,
        url: job.url,
        nextAttempt: job.nextAttempt,
        dueAt: new Date(job.dueAt).toISOString(),
      })),
      ...parts.orphans.map(({ event: _event, ...orphan }) => orphan),
    ],
  };
}

/**
 * Keeps the state in its file after changes: atomically (../atomic-file-writer.ts), urgent
 * changes at once and delivery progress soon, a failure as a StateFileError that names the file.
 */
export function stateFileWriter(file: string, snapshot: () => PersistedState): AtomicFileWriter {
  return new AtomicFileWriter(
    file,
    () => JSON.stringify(snapshot(), null, 1),
    (path, error) => new StateFileError(path, `cannot be written (${(error as Error).message})`, { cause: error }),
  );
}
