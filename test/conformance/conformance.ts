import { expect } from '@jest/globals';
import { expectNoKey } from '../surfaces/battery.ts';
import type { Call, Outcome, SurfaceDriver } from '../surfaces/driver.ts';
import { isGap } from '../surfaces/driver.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { selfSignedCertificate, tlsServer } from '../support/tls-certificates.ts';
import { withoutStrayErrors } from '../support/fault-server.ts';
import { CONFORMANCE_KEY, type Expected, type Row, type SurfaceName, type ValueMatch } from './answers.ts';

/**
 * Runs a row of the table (answers.ts) on a driver (test/surfaces/): a service on loopback
 * that gives the row's answer to every request of the call, the call through the surface's
 * runtime, and the outcome held to what the row expects of that surface. `checkRow` throws when
 * the surface does not conform, so a test can run it on a driver it expects to fail.
 */

/** The team list a surface reads before asking who is on call in a team (the documented way). */
const TEAMS_PATH = /\/o\/zapier\/allteams$/;
const TEAMS = [{ id: 'team_platform', name: 'Platform' }];

/** The most a row may take: a surface that waits out a long Retry-After or hangs fails it. */
const BOUND_MS = 5_000;

/**
 * The service of one row: the row's answer to every request, but the team list that the on-call
 * read needs first and that a connection check asks after the key check (connection-check.ts).
 */
async function serviceFor(row: Row) {
  const arrivals: { method: string; path: string; query: URLSearchParams; apiKey: string | undefined }[] = [];
  const handler: Parameters<typeof loopbackServer>[0] = (request, response) => {
    const url = new URL(request.url ?? '/', 'http://service');
    const path = url.pathname;
    const header = request.headers['x-apikey'];
    arrivals.push({ method: request.method ?? 'GET', path, query: url.searchParams, apiKey: Array.isArray(header) ? header[0] : header });
    request.resume();
    request.on('end', () => {
      if ((row.call === 'onCall' || row.call === 'everyoneOnCall' || row.call === 'checkKey') && TEAMS_PATH.test(path)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(row.teams ?? TEAMS));
        return;
      }
      const { status, type, body, headers } = row.answer;
      response.writeHead(status, { ...(type ? { 'content-type': type } : {}), ...headers }).end(body);
    });
  };
  const server = row.answer.tls ? await tlsServer(selfSignedCertificate(), handler) : await loopbackServer(handler);
  return { ...server, arrivals };
}

/** What a surface must do with a row: the row's expectation, or the surface's own and why. */
export function expectedOf(row: Row, surface: string): { expect: Expected; why?: string; requestsAtMost?: number } {
  const own = row.on?.[surface as SurfaceName];
  return own ?? { expect: row.expect };
}

/** The call a row makes on a driver, or why the surface has none. */
export function callOf(driver: SurfaceDriver, row: Row): Call | { gap: string } {
  const call = driver[row.call];
  if (call === undefined) return { gap: `${driver.name} has no ${row.call} (no instant trigger to remove a hook of)` };
  return call;
}

/** A list's items: the value itself when it is one. */
const listOf = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value : undefined);

/** Whether a value holds any content: a record of empty fields (as a search shapes an empty answer) holds none. */
function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.some(hasContent);
  if (typeof value === 'object') return Object.values(value).some(hasContent);
  return true;
}

function matchValue(value: unknown, match: ValueMatch): void {
  if (match.count !== undefined) {
    const list = listOf(value);
    if (!list) throw new Error(`expected a list of ${match.count}, got ${JSON.stringify(value)}`);
    expect(list).toHaveLength(match.count);
  }
  const text = JSON.stringify(value) ?? '';
  for (const fragment of match.holds ?? []) expect(text).toContain(fragment);
  for (const fragment of match.lacks ?? []) expect(text).not.toContain(fragment);
  if (match.shorterThan !== undefined) expect(text.length).toBeLessThan(match.shorterThan);
  if (match.id !== undefined) {
    const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    if (!record) throw new Error(`expected one record with an id, got ${text.slice(0, 200)}`);
    // The CLI's --json writes an empty id as null (docs/cli.md); every other surface as ''.
    expect(record.id ?? '').toBe(match.id);
  }
  if (match.nothing && hasContent(value)) throw new Error(`expected nothing found, got ${text}`);
  if (match.eachHoldsAtMost) {
    const { text: fragment, times } = match.eachHoldsAtMost;
    for (const item of listOf(value) ?? [value]) {
      const seen = (JSON.stringify(item) ?? '').split(fragment).length - 1;
      if (seen > times) throw new Error(`expected "${fragment}" at most ${times} times in each item, got ${seen} in ${JSON.stringify(item)}`);
    }
  }
}

const contains = (message: string, fragment: string | RegExp) =>
  typeof fragment === 'string' ? message.toLowerCase().includes(fragment.toLowerCase()) : fragment.test(message);

/** Holds an outcome to what was expected of it; throws a readable error when it does not. */
export function matchOutcome(outcome: Outcome, expected: Expected): void {
  if (expected.ok) {
    if (!outcome.ok) throw new Error(`expected success, got ${outcome.kind} (${outcome.native}): ${outcome.message}`);
    if (expected.value) matchValue(outcome.value, expected.value);
    return;
  }
  if (outcome.ok) throw new Error(`expected ${expected.kind}, got success: ${JSON.stringify(outcome.value)}`);
  if (outcome.kind !== expected.kind) throw new Error(`expected ${expected.kind}, got ${outcome.kind} (${outcome.native}): ${outcome.message}`);
  // An error of the surface's own making, with a message a person can act on.
  if (!outcome.own) throw new Error(`a bare ${outcome.native} got through: ${outcome.message}`);
  for (const fragment of expected.says ?? [])
    if (!contains(outcome.message, fragment)) throw new Error(`the message does not say ${String(fragment)}: ${outcome.message}`);
  for (const fragment of expected.saysNot ?? [])
    if (contains(outcome.message, fragment)) throw new Error(`the message says ${String(fragment)}: ${outcome.message}`);
}

/**
 * Runs the row on the driver and holds the outcome to it: the expected value or error, the key
 * sent and shown nowhere, in bounded time, nothing escaping as a stray error.
 */
export async function checkRow(driver: SurfaceDriver, row: Row): Promise<Outcome> {
  const call = callOf(driver, row);
  if (isGap(call)) throw new Error(call.gap);
  const service = await serviceFor(row);
  try {
    const started = performance.now();
    const target = { baseUrl: service.url, apiKey: CONFORMANCE_KEY, ...(row.email === undefined ? {} : { email: row.email }) };
    const { result: outcome, stray } = await withoutStrayErrors(() => call(target));
    const ms = performance.now() - started;
    expect(stray).toEqual([]);
    // The answer is the service's: the request reached it, with the key. Over a certificate
    // no client trusts, the handshake fails first: nothing may arrive.
    // Input refused before sending: nothing may arrive either.
    if (row.answer.tls || row.sends === 'nothing') expect(service.arrivals).toEqual([]);
    else expect(service.arrivals.length).toBeGreaterThan(0);
    if (typeof row.sends === 'object') expect(service.arrivals.map((arrival) => arrival.query.getAll('email'))).toEqual([[row.sends.email]]);
    expect(service.arrivals.every((arrival) => arrival.apiKey === CONFORMANCE_KEY)).toBe(true);
    const expected = expectedOf(row, driver.name);
    matchOutcome(outcome, expected.expect);
    if (expected.requestsAtMost !== undefined) expect(service.arrivals.length).toBeLessThanOrEqual(expected.requestsAtMost);
    expectNoKey(outcome, [CONFORMANCE_KEY]);
    expect(ms).toBeLessThan(BOUND_MS);
    return outcome;
  } finally {
    await service.close();
  }
}
