import { expect } from '@jest/globals';
import { echoesOf, KEYS, placements, type Echo, type Placement } from '../reliability/key-echoes.ts';
import { faultServer, json, withoutStrayErrors, type Behaviour, type FaultServer } from '../support/fault-server.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { isGap, type Call, type Outcome, type SurfaceDriver, type Target } from './driver.ts';

/**
 * The hostile battery: what every surface must do against a service that turns on it, over
 * real HTTP on loopback. Two servers on different ports of 127.0.0.1 are different origins
 * (RFC 6454 §4); the one the service redirects to records what reaches it, and anything that
 * does is a leak, since every HTTP library underneath would carry X-APIKEY there (got,
 * node-fetch and axios drop only the headers they know on a cross-origin hop). Each case
 * function throws when the surface fails it, so a test can run one on a driver it expects to
 * fail (hostile-battery.test.ts does, on a leaky one).
 */

export const STATUSES = [301, 302, 303, 307, 308] as const;
export type Operation = 'read' | 'write' | 'checkKey';
export const OPERATIONS: readonly Operation[] = ['read', 'write', 'checkKey'];

/**
 * The key of every case but the echoes (which use key-echoes.ts's): any place that shows it, or
 * its first or last 8 characters, is a leak, so those are in no file name a stack could show.
 */
export const KEY = 'Kb7q-battery-key-7c1e94d2a0';
const TEAMS = [{ id: 'team_platform', name: 'Platform' }];
const INCIDENT = {
  id: 'inc_0001',
  title: 'Disk full',
  severity: 'P3',
  status: 'triggered',
  description: null,
  teamname: null,
  created_at: '2026-11-02T08:00:00Z',
  updated_at: '2026-11-02T08:00:00Z',
};
/** What the service answers each operation when all is well, and a word its result must hold. */
const SUCCESS: Record<Operation, { answer: Behaviour; holds: string }> = {
  read: { answer: json(200, TEAMS), holds: 'Platform' },
  write: { answer: json(201, INCIDENT), holds: 'inc_0001' },
  checkKey: { answer: json(200, { valid: true, user: { name: 'Grace Hopper' }, organization: { name: 'Acme' } }), holds: 'Grace Hopper' },
};

/** How long a surface with a time-out setting gets, and the most any fault case may take. */
export const HANG_TIMEOUT_MS = 300;
const BOUND_MS = 5_000;

/** Starts servers for one case and closes them all however it ends. */
async function withServers<T>(work: (open: (script: Behaviour[]) => Promise<FaultServer>) => Promise<T>): Promise<T> {
  const servers: FaultServer[] = [];
  try {
    return await work(async (script) => {
      const server = await faultServer(script);
      servers.push(server);
      return server;
    });
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

function callOf(driver: SurfaceDriver, operation: Operation): Call {
  const call = driver[operation];
  if (isGap(call)) throw new Error(`${driver.name} cannot ${operation}: ${call.gap}`);
  return call;
}

/** Calls and times it; an escaped socket error or unhandled rejection fails the case. */
async function timed(call: Call, target: Target): Promise<{ outcome: Outcome; ms: number }> {
  const started = performance.now();
  const { result, stray } = await withoutStrayErrors(() => call(target));
  expect(stray).toEqual([]);
  return { outcome: result, ms: performance.now() - started };
}

/** No place of the outcome holds the key or a recognisable piece of it, in any encoding (leak-watch.ts `fragments`). */
export function expectNoKey(outcome: Outcome, keys: readonly string[]): void {
  const watch = new LeakWatch();
  for (const [place, value] of Object.entries(outcome.shown)) {
    if (typeof value === 'string') watch.text(place, value);
    else watch.value(place, value);
  }
  if (!outcome.ok) watch.text('message', outcome.message);
  expect(watch.leaks(keys)).toEqual([]);
}

/** The failure the outcome must be: one the surface itself makes, with a message to read. */
function failure(outcome: Outcome): Extract<Outcome, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect({ kind: outcome.kind, own: outcome.own }).toEqual({ kind: outcome.kind, own: true });
  expect(outcome.message.trim()).not.toBe('');
  return outcome;
}

/**
 * The service answers `status` with a Location on another origin, whose path and query are
 * where a service would hide a stolen key: nothing reaches the other origin, the surface fails
 * with its redirect error, which says the status and the target's host, never the key, the
 * path or the query, and the request is neither retried nor repeated.
 */
export async function crossOriginRedirect(driver: SurfaceDriver, operation: Operation, status: number): Promise<void> {
  await withServers(async (open) => {
    const other = await open([SUCCESS[operation].answer]);
    const location = `${other.url}/collect?token=stolen-${KEY.slice(0, 8)}`;
    const service = await open([{ kind: 'answer', status, body: '', headers: { location } }]);
    const { outcome } = await timed(callOf(driver, operation), { baseUrl: service.url, apiKey: KEY });
    expect(other.arrivals).toEqual([]);
    const { kind, native, message } = failure(outcome);
    expect({ kind, native }).toEqual({ kind: 'redirect', native: driver.redirect.native });
    expect(message).toContain(driver.redirect.statusSaid(status));
    if (driver.redirect.namesTargetHost === true) expect(message).toContain(new URL(other.url).host);
    expect(message).not.toContain('/collect');
    expect(message).not.toContain('stolen');
    expectNoKey(outcome, [KEY]);
    expect(service.arrivals.map((arrival) => arrival.apiKey)).toEqual([KEY]);
  });
}

/** The statuses a same-origin redirect is tried with: a write keeps its method only on 307 and 308. */
const SAME_ORIGIN_STATUS: Record<Operation, number> = { read: 301, write: 307, checkKey: 302 };

/**
 * The service redirects to another path of its own origin: followed, with the key, and the
 * answer there is the result; or, where the surface follows no redirect at all, refused with
 * its redirect error after one request.
 */
export async function sameOriginRedirect(driver: SurfaceDriver, operation: Operation): Promise<void> {
  await withServers(async (open) => {
    const script: Behaviour[] = [];
    const service = await open(script);
    const status = SAME_ORIGIN_STATUS[operation];
    // A connection check lists the teams after the key check (shared/operations/connection-check.ts).
    const then = operation === 'checkKey' ? [json(200, TEAMS)] : [];
    script.push({ kind: 'answer', status, body: '', headers: { location: `${service.url}/moved/here` } }, SUCCESS[operation].answer, ...then);
    const { outcome } = await timed(callOf(driver, operation), { baseUrl: service.url, apiKey: KEY });
    expectNoKey(outcome, [KEY]);
    if (driver.redirect.sameOrigin === 'followed') {
      if (!outcome.ok) throw new Error(`the redirect was not followed: ${outcome.kind}: ${outcome.message}`);
      expect(JSON.stringify(outcome.value)).toContain(SUCCESS[operation].holds);
      // The answer after the redirect is the result, just as that answer is without one.
      const direct = await callOf(driver, operation)({ baseUrl: (await open([SUCCESS[operation].answer, ...then])).url, apiKey: KEY });
      expect(direct.ok && direct.value).toEqual(outcome.value);
      const [first, second, ...more] = service.arrivals;
      expect(more.filter((arrival) => !(operation === 'checkKey' && arrival.url.endsWith('/o/zapier/allteams')))).toEqual([]);
      expect(second).toMatchObject({ method: first?.method, url: '/moved/here', apiKey: KEY });
      expect(first?.apiKey).toBe(KEY);
    } else {
      const { kind, native, message } = failure(outcome);
      expect({ kind, native }).toEqual({ kind: 'redirect', native: driver.redirect.native });
      expect(message).toContain(driver.redirect.statusSaid(status));
      expect(service.arrivals).toHaveLength(1);
    }
  });
}

/**
 * The service puts the key it was sent back into its answer (in a text, a header, a Location),
 * as one of secrets-echo.test.ts's echoes: whatever the surface makes of it holds no piece of
 * the key in any encoding.
 */
export async function keyEcho(driver: SurfaceDriver, echo: Echo, placement: Placement): Promise<void> {
  await withServers(async (open) => {
    const script: Behaviour[] = [];
    const service = await open(script);
    script.push(placement.answer(echo.text, service.url));
    const { outcome } = await timed(driver.read, { baseUrl: service.url, apiKey: echo.key });
    // The key did go out: the echo is the service's, not made up.
    expect(service.arrivals[0]?.apiKey).toBe(echo.key);
    expectNoKey(outcome, [echo.key]);
    if (!outcome.ok) failure(outcome);
  });
}

/**
 * A service that accepts the request and never answers (`before headers`), or sends the head
 * and part of the body and then nothing (`mid-body`). With a time-out setting: a failure within
 * bounded time, saying the service did not answer in time, a create not sent twice. With a
 * fixed time-out too long to wait for: an answer that is slow but comes is waited for.
 */
export async function hang(driver: SurfaceDriver, operation: Operation, how: 'before headers' | 'mid-body'): Promise<void> {
  await withServers(async (open) => {
    const body = SUCCESS[operation].answer.kind === 'answer' ? SUCCESS[operation].answer.body : '';
    if (driver.hang !== 'knob') {
      const slow = { ...(SUCCESS[operation].answer as Extract<Behaviour, { kind: 'answer' }>), delayMs: 1_000 };
      const service = await open([slow]);
      const { outcome, ms } = await timed(callOf(driver, operation), { baseUrl: service.url, apiKey: KEY });
      if (!outcome.ok) throw new Error(`a slow answer was not waited for: ${outcome.kind}: ${outcome.message}`);
      expect(JSON.stringify(outcome.value)).toContain(SUCCESS[operation].holds);
      expect(ms).toBeLessThan(BOUND_MS);
      return;
    }
    const script: Behaviour[] = how === 'before headers' ? [{ kind: 'hang' }] : [{ kind: 'stall-mid-body', status: 200, body, cutAt: 8 }];
    const service = await open(script);
    const { outcome, ms } = await timed(callOf(driver, operation), { baseUrl: service.url, apiKey: KEY, timeoutMs: HANG_TIMEOUT_MS });
    const { message } = failure(outcome);
    expect(message).toMatch(/did not answer|no answer|no more|in time|timed? ?out/i);
    expect(ms).toBeLessThan(BOUND_MS);
    expectNoKey(outcome, [KEY]);
    if (operation === 'write') expect(service.arrivals).toHaveLength(1);
  });
}

/**
 * The service sends the head with the whole body's Content-Length (or chunked) and part of the
 * body, then drops the connection: a failure, quickly, that says the answer was lost, never the
 * half body taken as a result; a create not sent twice.
 */
export async function cutOff(driver: SurfaceDriver, operation: Operation, chunked: boolean): Promise<void> {
  await withServers(async (open) => {
    const answer = SUCCESS[operation].answer;
    const body = answer.kind === 'answer' ? answer.body : '';
    const service = await open([{ kind: 'reset-mid-body', status: 200, body, cutAt: Math.floor(body.length / 2), chunked }]);
    const { outcome, ms } = await timed(callOf(driver, operation), { baseUrl: service.url, apiKey: KEY });
    failure(outcome);
    expect(ms).toBeLessThan(BOUND_MS);
    expectNoKey(outcome, [KEY]);
    if (operation === 'write') expect(service.arrivals).toHaveLength(1);
  });
}

export interface BatteryCase {
  readonly name: string;
  /** Why this surface does not run the case (a gap the driver states), or undefined. */
  readonly skip?: string;
  run(): Promise<void>;
}

/**
 * Every echo of both keys in a JSON error text, and each in one more placement, taken in turn,
 * so each encoding meets the JSON error and every placement meets several encodings.
 */
export const ECHO_CASES: readonly { echo: Echo; placement: Placement }[] = (() => {
  const echoes = KEYS.flatMap(echoesOf);
  const [first] = placements;
  return echoes.flatMap((echo, index) => {
    const turn = placements[index % placements.length]!;
    return [first!, ...(turn === first ? [] : [turn])].map((placement) => ({ echo, placement }));
  });
})();

/** The whole battery for one surface. */
export function batteryCases(driver: SurfaceDriver): BatteryCase[] {
  const gapOf = (operation: Operation) => {
    const call = driver[operation];
    return isGap(call) ? call.gap : undefined;
  };
  const cases: BatteryCase[] = [];
  for (const operation of OPERATIONS) {
    for (const status of STATUSES) {
      cases.push({
        name: `${operation}: a ${status} to another origin is not followed`,
        skip: gapOf(operation),
        run: () => crossOriginRedirect(driver, operation, status),
      });
    }
    const sameOrigin = isGap(driver.redirect.sameOrigin) ? 'refused' : 'followed, with the key';
    cases.push({
      name: `${operation}: a redirect to the same origin is ${sameOrigin}`,
      skip: gapOf(operation),
      run: () => sameOriginRedirect(driver, operation),
    });
  }
  for (const { echo, placement } of ECHO_CASES) {
    cases.push({
      name: `read: the key echoed (${echo.name}, key ${KEYS.indexOf(echo.key as (typeof KEYS)[number]) + 1}) in the ${placement.name} is shown nowhere`,
      skip: driver.echoGap?.(echo, placement),
      run: () => keyEcho(driver, echo, placement),
    });
  }
  for (const operation of ['read', 'write'] as const) {
    if (driver.hang === 'knob') {
      for (const how of ['before headers', 'mid-body'] as const)
        cases.push({ name: `${operation}: a service that hangs ${how} ends in a time-out error`, run: () => hang(driver, operation, how) });
    } else {
      cases.push({ name: `${operation}: a slow answer is waited for (fixed time-out)`, run: () => hang(driver, operation, 'before headers') });
    }
    for (const framing of ['Content-Length', 'chunked'] as const)
      cases.push({
        name: `${operation}: an answer cut off mid-body (${framing}) ends in an error`,
        skip: driver.cutOffGap?.(framing),
        run: () => cutOff(driver, operation, framing === 'chunked'),
      });
  }
  return cases;
}
