import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import type { ZObject } from 'zapier-platform-core';
import { buildRequest } from '../../shared/http/request.ts';
import { zRequestTransport } from '../../zapier-app/z-request-transport.ts';
import { faultServer, json, withoutStrayErrors, type Behaviour, type FaultServer } from '../support/fault-server.ts';
import { closedPort } from '../support/loopback-server.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { zapierErrorName, zapierErrorPayload, zapierHandler } from './zapier-handler.ts';
import { SAMPLE_INCIDENT } from './fault-fixtures.ts';

/**
 * The Zapier app's transport (z.request through zapier-platform-core's handler) against
 * loopback servers that misbehave on purpose, over real sockets. z.request makes one attempt;
 * what is worth repeating becomes a ThrottledError, so Zapier runs the step again later (after
 * the service's Retry-After when it gave one); what is not stops the step with a message.
 */
isolateZapierCore();

const KEY = 'faults-zapier-key-71d3b0e8';
const TEAMS = [{ id: 'team_platform', name: 'Platform' }];
/** What the hidden team trigger gives Zapier: each team with the label its dropdown option shows. */
const TEAMS_OUT = TEAMS.map((t) => ({ ...t, name_shown: t.name }));
const HTML = '<!doctype html><html><body><h1>Maintenance</h1></body></html>';

const zapier = zapierHandler();
const savedBase = process.env.PAGERLY_BASE_URL;
let server: FaultServer | undefined;
const faultsTried: string[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = savedBase;
  // 14 faults: the count the report gives.
  expect(faultsTried).toHaveLength(14);
});

const team = 'triggers.team.operation.perform';
const createIncident = 'creates.create_incident.operation.perform';
const bundles: Record<string, Record<string, unknown>> = {
  [team]: { authData: { apiKey: KEY }, inputData: {} },
  [createIncident]: { authData: { apiKey: KEY }, inputData: { title: 'Disk full' } },
};

async function serve(name: string, script: Behaviour[]) {
  faultsTried.push(name);
  server = await faultServer(script);
  process.env.PAGERLY_BASE_URL = server.url;
  return server;
}

/** One invocation, as Zapier makes it: the results, or the error it ends in. */
async function invoke(method: string) {
  const { result, stray } = await withoutStrayErrors(() =>
    zapier.run(method, bundles[method]!).then(
      (envelope) => ({ results: envelope.results, error: undefined }),
      (error: unknown) => ({ results: undefined, error }),
    ),
  );
  expect(stray).toEqual([]);
  return { ...result, name: result.error === undefined ? 'no error' : zapierErrorName(result.error), payload: zapierErrorPayload(result.error) };
}

describe('the Zapier app over real HTTP, when the service misbehaves', () => {
  it.each([team, createIncident])('down (closed port), %s: ThrottledError, retried by Zapier in a minute or two', async (method) => {
    faultsTried.push(`closed port (${method})`);
    process.env.PAGERLY_BASE_URL = await closedPort();
    const outcome = await invoke(method);
    expect(outcome.name).toBe('ThrottledError');
    expect(outcome.payload.message).toMatch(/Could not reach the service at 127\.0\.0\.1:\d+ \(ECONNREFUSED/);
    expect(outcome.payload.delay).toBeGreaterThanOrEqual(60);
    expect(outcome.payload.delay).toBeLessThan(120);
  });

  it('500, a read: one attempt, then ThrottledError (reading again cannot do anything twice)', async () => {
    const service = await serve(`500 (${team})`, [json(500, [{ Error: 'Internal error' }])]);
    const outcome = await invoke(team);
    expect(outcome.name).toBe('ThrottledError');
    expect(outcome.payload.message).toContain('HTTP 500: Internal error');
    expect(service.arrivals).toHaveLength(1);
  });

  // The incident may exist: a Zapier replay (ThrottledError, or Autoreplay of an errored step,
  // docs.zapier.com/platform/manage/api-outage) could page twice. HaltedError stops the run on
  // purpose and is not replayed by itself (help.zapier.com/hc/en-us/articles/20505304170637).
  it('500, a create: one attempt, then HaltedError telling the user to check before replaying', async () => {
    const service = await serve(`500 (${createIncident})`, [json(500, [{ Error: 'Internal error' }])]);
    const outcome = await invoke(createIncident);
    expect(outcome.name).toBe('HaltedError');
    expect((outcome.error as Error).message).toContain('HTTP 500: Internal error');
    expect((outcome.error as Error).message).toMatch(/may have been done anyway: check in Pagerly before trying again/);
    expect(service.arrivals).toHaveLength(1);
  });

  it.each([
    [team, TEAMS, 200],
    [createIncident, SAMPLE_INCIDENT, 201],
  ] as const)('429 with Retry-After, %s: Zapier is told to wait exactly that long; its next run succeeds', async (method, answer, status) => {
    const service = await serve(`429 then success (${method})`, [json(429, [{ Error: 'Rate limit exceeded' }], { 'retry-after': '7' }), json(status, answer)]);
    const first = await invoke(method);
    expect(first.name).toBe('ThrottledError');
    expect(first.payload).toMatchObject({ delay: 7, message: expect.stringContaining('try again in 7 s') });
    const second = await invoke(method);
    expect(second.error).toBeUndefined();
    // A create's result always says whether a note came with its id (assumption `created-id`).
    expect(second.results).toEqual(method === team ? TEAMS_OUT : { ...answer, note: '' });
    expect(service.arrivals.map((arrival) => arrival.apiKey)).toEqual([KEY, KEY]);
  });

  it('HTML instead of JSON: the step stops with invalid_response, the status and an excerpt', async () => {
    await serve('HTML 200', [{ kind: 'answer', status: 200, body: HTML, headers: { 'content-type': 'text/html' } }]);
    const outcome = await invoke(team);
    expect(outcome.name).toBe('AppError:invalid_response');
    expect(outcome.payload.status).toBe(200);
    expect(outcome.payload.message).toContain('HTTP 200 with a body that is not JSON (text/html)');
    expect(outcome.payload.message).toContain('<h1>Maintenance</h1>');
  });

  it('JSON cut off mid-way: the step stops with invalid_response', async () => {
    const cut = JSON.stringify(TEAMS).slice(0, 20);
    await serve('truncated JSON', [{ kind: 'answer', status: 200, body: cut, headers: { 'content-type': 'application/json' } }]);
    const outcome = await invoke(team);
    expect(outcome.name).toBe('AppError:invalid_response');
    expect(outcome.payload.message).toContain(cut);
  });

  it('a connection reset before any answer: ThrottledError', async () => {
    await serve('reset before the answer', [{ kind: 'reset' }]);
    const outcome = await invoke(team);
    expect(outcome.name).toBe('ThrottledError');
    expect(outcome.payload.message).toMatch(/Could not reach the service .*(ECONNRESET|socket hang up)/);
  });

  it('a connection reset mid-response of a chunked answer: ThrottledError', async () => {
    const service = await serve('reset mid-response (chunked)', [
      { kind: 'reset-mid-body', status: 200, body: JSON.stringify(TEAMS), cutAt: 12, chunked: true },
    ]);
    const outcome = await invoke(team);
    expect(outcome.name).toBe('ThrottledError');
    expect(outcome.payload.message).toMatch(/Could not reach the service .*Premature close/);
    expect(service.arrivals).toHaveLength(1);
  });

  it('a slow answer within any sensible limit is simply the answer', async () => {
    await serve('slow but answering', [json(200, TEAMS, {}, 300)]);
    const outcome = await invoke(team);
    expect(outcome.error).toBeUndefined();
    expect(outcome.results).toEqual(TEAMS_OUT);
  });

  /** The time limit the transport gives z.request (undefined: none). */
  async function transportTimeout(): Promise<unknown> {
    const seen: Record<string, unknown>[] = [];
    const z = {
      request: async (options: Record<string, unknown>) => {
        seen.push(options);
        return { status: 200, headers: new Map([['content-type', 'application/json']]), content: '[]' };
      },
    } as unknown as ZObject;
    await zRequestTransport(z).send(buildRequest('listTeams', {}, { apiKey: KEY }));
    return seen[0]?.timeout;
  }

  /**
   * Runs the operation against the script for at most `budgetMs`. The step must end in a
   * ThrottledError within the budget, or at least be bounded: the transport gives z.request a
   * time limit below Zapier's own 30 s (then it ends when that limit strikes, too late to wait for here).
   */
  async function endsOrIsBounded(name: string, script: Behaviour[], method: string, budgetMs = 2_000) {
    await serve(name, script);
    const ended = await Promise.race([
      zapier.run(method, bundles[method]!).then(
        () => 'no error',
        (error: unknown) => zapierErrorName(error),
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), budgetMs).unref()),
    ]);
    const limit = await transportTimeout();
    const bounded = typeof limit === 'number' && limit > 0 && limit < 30_000;
    return { ended, bounded, ok: ended === 'ThrottledError' || (ended === 'still running' && bounded) };
  }

  // An answer cut off mid-body after a Content-Length header never settles in node-fetch 2.7.0
  // (zapier-platform-core's HTTP client) by itself; the transport's `timeout` (below Zapier's
  // 30 s) ends the step with a retryable error instead of leaving it hanging.
  it.each([team, createIncident])('a connection reset mid-response of a Content-Length answer, %s, never leaves the step hanging', async (method) => {
    const body = method === team ? JSON.stringify(TEAMS) : JSON.stringify(SAMPLE_INCIDENT);
    const outcome = await endsOrIsBounded(`reset mid-response (Content-Length, ${method})`, [{ kind: 'reset-mid-body', status: 200, body, cutAt: 12 }], method);
    expect(outcome).toMatchObject({ ok: true });
  });

  // Same for a service that accepts the connection and never answers.
  it('a service that never answers does not leave the step hanging', async () => {
    const outcome = await endsOrIsBounded('no answer at all', [{ kind: 'hang' }], team);
    expect(outcome).toMatchObject({ ok: true });
  });
});
