/**
 * The `@pagerly/sandbox` package's entry: the in-process sandbox for a test suite.
 *
 * Its types are written out here, in plain TypeScript, rather than re-exported from the
 * sandbox's modules: those name Fastify's and zod's types, which the package bundles but does
 * not install, so a consumer's compiler could not resolve them. The compiler holds the two
 * together: the options given here must be options of the sandbox (the call below), and the
 * sandbox it makes must be a `Sandbox` as written here (the return); a seed as the sandbox
 * reads it must be a `SandboxSeed` (`SeedFitsBothWays`).
 */
import { createSandbox as createInProcess, demoKeys as keysOfTheDemoSeed } from '../index.ts';
import type { Seed } from '../seed/schema.ts';

export interface SandboxPerson {
  id: string;
  name: string;
  email: string;
  imageurl: string | null;
  /** International format (E.164), e.g. `+14155550123`, or null. */
  phone: string | null;
  role: 'owner' | 'admin' | 'user';
}

/** A layer of a team's schedule: participants take turns, one shift each, from `start` on. */
export interface SandboxRotation {
  id: string;
  teamId: string;
  participants: string[];
  /** ISO 8601, e.g. `2026-11-02T00:00:00Z`. */
  start: string;
  shiftHours: number;
}

export interface SandboxOrganization {
  id: string;
  name: string;
  people: SandboxPerson[];
  /** Each key acts as its person, in this organization (at least 16 characters). */
  apiKeys: { key: string; personId: string }[];
  teams: { id: string; name: string }[];
  rotations: SandboxRotation[];
}

/** A world to serve. Ids are unique across the whole seed; references stay inside their organization. */
export interface SandboxSeed {
  /** Where a fixed clock starts, ISO 8601. */
  clockStart: string;
  organizations: SandboxOrganization[];
}

/** A canned answer for the next matching request(s) to the service. */
export interface SandboxFault {
  method?: string;
  /** The path without a base prefix, e.g. `/o/zapier/allteams`, or a catalog path such as `/o/zapier/subscribe/{id}`. */
  path: string;
  status: number;
  body: string;
  /** Default `application/json; charset=utf-8`. */
  contentType?: string;
  headers?: Record<string, string>;
  /** How many requests get it before it is gone; default 1. */
  times?: number;
  delayMs?: number;
}

export type DeliveryOutcome = 'delivered' | 'gone' | 'failed-status' | 'network-error' | 'timeout';

/** One attempt to deliver a hook event to a subscribed URL. */
export interface DeliveryAttempt {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
  readonly outcome: DeliveryOutcome;
  readonly status?: number;
}

/** A delivery that used up its retries. */
export interface FailedDelivery {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  readonly attempts: number;
  readonly lastOutcome: DeliveryOutcome;
  readonly event: { readonly id: string };
}

/** A delivery kept in a state file, still to be sent. */
export interface PendingDelivery {
  readonly eventId: string;
  readonly subscriptionId: string;
  readonly url: string;
  readonly nextAttempt: number;
  /** Wall-clock time the attempt is due (ISO 8601). */
  readonly dueAt: string;
}

export interface SandboxOptions {
  /** Default: the demo world (`demoKeys` open it). Checked: a bad seed rejects, naming the field. */
  seed?: SandboxSeed;
  /** Default `{ mode: 'fixed' }`, at the seed's `clockStart`: time moves only through `clock`. */
  clock?: { mode: 'fixed'; start?: string } | { mode: 'real' };
  /** Per API key. Default 600 requests per minute; `false` turns it off. */
  rateLimit?: { limit: number; windowMs: number } | false;
  /** Hook delivery. Default: 5 s per attempt, retries after 1 s, 5 s and 30 s. */
  delivery?: { timeoutMs?: number; retryDelaysMs?: number[]; concurrency?: number; slowLaneAfterMs?: number; slowLaneSize?: number };
  /** Keep subscriptions, ids and pending deliveries in this JSON file across restarts. Default: nothing is written. */
  persistence?: { file: string };
  /** The keyless `/_sandbox` control routes (clock, faults). Default true. */
  controls?: boolean;
  /**
   * More hosts a request may name in its Host header, on any port: `['host.docker.internal']`,
   * or `.example.test` for that name and every name under it. Every route answers only
   * `localhost`, `*.localhost`, `127.0.0.1`, `[::1]` or the address it was reached at, with
   * its port, and these; another Host (a web page whose domain was pointed at this machine:
   * DNS rebinding) gets 403. `true` answers any Host: unsafe, any web page open in a browser
   * here can then use the sandbox. Default: none more (`true` with `console.allowRemote`).
   */
  allowedHosts?: readonly string[] | true;
  /**
   * The live console at `/`, served with the controls. Default: on, answering requests from
   * this machine only; `allowRemote: true` answers other machines too (and any Host, unless
   * `allowedHosts` is given); `false` leaves it out.
   */
  console?: { allowRemote?: boolean } | false;
  /** Fastify's request log. Default false. */
  logger?: boolean;
}

export interface Sandbox {
  /**
   * Starts serving; resolves to the API base URL, e.g. `http://127.0.0.1:4010` (give it to the
   * client as `baseUrl`, or as `PAGERLY_BASE_URL`); the rotations base is that plus `/pagerly`.
   * Default port 0 (a free one) on 127.0.0.1.
   */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** Stops delivering, closes the server. Call it in your suite's `after`/`afterAll`. */
  close(): Promise<void>;
  /** `set` and `advance` look for on-call changes, which may send hook deliveries. */
  readonly clock: { now(): Date; set(at: string | Date): Promise<void>; advance(ms: number): Promise<void> };
  /** Faults answer the next matching request(s) instead of the service. */
  readonly faults: { inject(fault: SandboxFault): void; clear(): void };
  /** `idle()` resolves once every hook delivery is done; `log` holds every attempt. */
  readonly deliveries: { idle(): Promise<void>; readonly log: readonly DeliveryAttempt[]; readonly failed: readonly FailedDelivery[] };
  /** Looks for on-call changes now, as moving the clock does (a real clock looks each second). */
  checkOnCallChanges(): Promise<void>;
  /** With `persistence`: how many pending deliveries the file gave back, and those whose subscription it lacks. */
  readonly kept: { readonly resumed: number; readonly orphans: readonly PendingDelivery[] } | undefined;
}

/** Fake keys of the demo world: they open nothing but a sandbox. */
export const demoKeys: {
  /** Grace Hopper, an admin of Acme. */
  readonly acmeAdmin: string;
  /** Alan Turing, a user of Acme (not an admin). */
  readonly acmeUser: string;
  /** Ada Lovelace, the owner of Acme. */
  readonly acmeOwner: string;
  /** Rosalind Franklin, an admin of Globex, another organization. */
  readonly globexAdmin: string;
} = keysOfTheDemoSeed;

/** A sandbox of the Pagerly service in this process; `listen()` to serve it. */
export function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createInProcess(options);
}

type SeedFitsBothWays = [Seed] extends [SandboxSeed] ? ([SandboxSeed] extends [Seed] ? true : false) : false;
const seedFitsBothWays: SeedFitsBothWays = true;
void seedFitsBothWays;
