import { afterAll, describe, expect, it } from '@jest/globals';
import type { EndpointKey } from '../../shared/catalog/endpoints.ts';
import { InvalidResponseError, NetworkError, RateLimitError, ServerError, TimeoutError, type PagerlyError } from '../../shared/errors.ts';
import { faultServer, json, withoutStrayErrors, type Behaviour } from '../support/fault-server.ts';
import { closedPort } from '../support/loopback-server.ts';
import { rejection, SAMPLE_INCIDENT } from './fault-fixtures.ts';
import { typedClients } from '../support/typed-clients.ts';
import type { PagerlyClient } from '../../shared/client.ts';

/**
 * The typed client (on got and on fetch) against loopback servers that misbehave on purpose, over
 * real sockets (no nock): slow, down, 5xx, 429 with Retry-After, HTML, truncated JSON, a
 * connection reset before and in the middle of an answer, a body that stalls. Reads are
 * retried, a create is not (except after a 429); nothing hangs and nothing escapes.
 */
const KEY = 'faults-client-key-0c4e2a91';
const TEAMS = [{ id: 'team_platform', name: 'Platform' }];

const faultsTried: string[] = [];
afterAll(() => {
  // 22 faults on each transport: the count the report gives.
  expect(faultsTried).toHaveLength(22 * typedClients.length);
});

type Client = PagerlyClient;
type MakeClient = (typeof typedClients)[number][1];
type Call = (client: Client) => Promise<unknown>;
const read: Call = (client) => client.listTeams();
const create: Call = (client) => client.createOrUpdateIncident({ title: 'Disk full' });

/** One fault: a server playing `script`, one call through a client; what came back, and how many requests arrived when. */
async function tryFault(
  makeClient: MakeClient,
  name: string,
  script: Behaviour[],
  call: Call,
  options: { timeoutMs?: number; retries?: number; maxRetryAfterMs?: number } = {},
) {
  faultsTried.push(name);
  const server = await faultServer(script);
  const client = makeClient({
    apiKey: KEY,
    baseUrl: server.url,
    backoffMs: 10,
    timeoutMs: options.timeoutMs ?? 2_000,
    retries: options.retries ?? 2,
    ...(options.maxRetryAfterMs ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}),
  });
  const started = performance.now();
  try {
    const { result, stray } = await withoutStrayErrors(() =>
      call(client).then(
        (value) => ({ value, error: undefined }),
        (error: unknown) => ({ value: undefined, error: error as PagerlyError }),
      ),
    );
    expect(stray).toEqual([]);
    // Every attempt carried the key.
    expect(server.arrivals.every((arrival) => arrival.apiKey === KEY)).toBe(true);
    return { ...result, arrivals: server.arrivals, ms: performance.now() - started };
  } finally {
    await server.close();
  }
}

const HTML = '<!doctype html><html><head><title>Down for maintenance</title></head><body><h1>Maintenance</h1></body></html>';
const teamsText = JSON.stringify(TEAMS);

describe.each(typedClients)('the typed client on %s over real HTTP, when the service misbehaves', (_transport, makeClient) => {
  describe('slow', () => {
    it('a read that outlasts timeoutMs is a TimeoutError after the retries, without waiting for the slow answer', async () => {
      const outcome = await tryFault(makeClient, 'slow read', [json(200, TEAMS, {}, 1_500)], read, { timeoutMs: 100 });
      expect(outcome.error).toBeInstanceOf(TimeoutError);
      expect(outcome.error).toMatchObject({ code: 'timeout', retryable: true, endpoint: 'listTeams' });
      expect(outcome.error!.message).toMatch(/did not answer within 0\.1 s/);
      expect(outcome.arrivals).toHaveLength(3);
      expect(outcome.ms).toBeLessThan(1_500);
    });

    it('a create that outlasts timeoutMs is a TimeoutError after one attempt: it may have been done', async () => {
      const outcome = await tryFault(makeClient, 'slow create', [json(201, SAMPLE_INCIDENT, {}, 1_500)], create, { timeoutMs: 100 });
      expect(outcome.error).toBeInstanceOf(TimeoutError);
      expect(outcome.arrivals).toHaveLength(1);
    });

    it('a replace or a delete is repeated like a read (assumption `limits`: safe to repeat)', async () => {
      const outcome = await tryFault(
        makeClient,
        'slow delete',
        [json(200, { id: 'sub_1', removed: true }, {}, 1_500)],
        (client) => client.unsubscribeZapierHook({ id: 'sub_1' }),
        { timeoutMs: 100 },
      );
      expect(outcome.error).toBeInstanceOf(TimeoutError);
      expect(outcome.arrivals).toHaveLength(3);
    });

    it('an answer that is slow but within timeoutMs is simply the answer', async () => {
      const outcome = await tryFault(makeClient, 'slow within the limit', [json(200, TEAMS, {}, 150)], read, { timeoutMs: 1_000 });
      expect(outcome.value).toEqual(TEAMS);
      expect(outcome.arrivals).toHaveLength(1);
    });

    it('headers, then a body that stalls: a TimeoutError, not a hang', async () => {
      const outcome = await tryFault(makeClient, 'body stalls', [{ kind: 'stall-mid-body', status: 200, body: teamsText, cutAt: 10 }], read, {
        timeoutMs: 150,
        retries: 0,
      });
      expect(outcome.error).toBeInstanceOf(TimeoutError);
      expect(outcome.arrivals).toHaveLength(1);
    });
  });

  describe('down', () => {
    it.each([
      ['read', read],
      ['create', create],
    ] as const)('a closed port (%s): a retryable NetworkError naming the refusal', async (what, call) => {
      faultsTried.push(`closed port (${what})`);
      const base = await closedPort();
      const failure = await rejection<PagerlyError>(call(makeClient({ apiKey: KEY, baseUrl: base, backoffMs: 10 })));
      expect(failure).toBeInstanceOf(NetworkError);
      expect(failure).toMatchObject({ code: 'network', retryable: true });
      expect(failure!.message).toMatch(/Could not reach the service at 127\.0\.0\.1:\d+ \(ECONNREFUSED/);
      expect(failure!.message).not.toContain(KEY);
    });
  });

  describe('5xx', () => {
    it('a read that keeps failing with 500 is a ServerError after three attempts', async () => {
      const outcome = await tryFault(makeClient, '500 on a read', [json(500, [{ Error: 'Internal error' }])], read);
      expect(outcome.error).toBeInstanceOf(ServerError);
      expect(outcome.error).toMatchObject({ status: 500, retryable: true, serviceMessage: 'Internal error' });
      expect(outcome.arrivals).toHaveLength(3);
    });

    it('a read that fails once with 503 is answered by the retry', async () => {
      const outcome = await tryFault(makeClient, '503 then success', [json(503, [{ Error: 'Unavailable' }]), json(200, TEAMS)], read);
      expect(outcome.value).toEqual(TEAMS);
      expect(outcome.arrivals).toHaveLength(2);
    });

    it('a create that meets a 500 is not repeated: one attempt, a ServerError', async () => {
      const outcome = await tryFault(makeClient, '500 on a create', [json(500, [{ Error: 'Internal error' }]), json(201, SAMPLE_INCIDENT)], create);
      expect(outcome.error).toBeInstanceOf(ServerError);
      expect(outcome.arrivals).toHaveLength(1);
    });

    it('an HTML 502 from a gateway is a ServerError that quotes it', async () => {
      const outcome = await tryFault(makeClient, 'HTML 502', [{ kind: 'answer', status: 502, body: HTML, headers: { 'content-type': 'text/html' } }], read, {
        retries: 0,
      });
      expect(outcome.error).toBeInstanceOf(ServerError);
      expect(outcome.error!.message).toContain('HTTP 502: "<!doctype html>');
    });
  });

  describe('429 with Retry-After', () => {
    it.each([
      ['read', read, TEAMS],
      ['create', create, SAMPLE_INCIDENT],
    ] as const)('a %s waits the Retry-After, then gets the answer', async (what, call, answer) => {
      const outcome = await tryFault(
        makeClient,
        `429 then success (${what})`,
        [json(429, [{ Error: 'Rate limit exceeded' }], { 'retry-after': '1' }), json(what === 'read' ? 200 : 201, answer)],
        call,
      );
      expect(outcome.error).toBeUndefined();
      // A create's result always says whether a note came with its id (assumption `created-id`).
      expect(outcome.value).toEqual(what === 'read' ? answer : { ...answer, note: '' });
      expect(outcome.arrivals).toHaveLength(2);
      // The second attempt came after the second the service asked for (not after the 10 ms backoff).
      expect(outcome.arrivals[1]!.at - outcome.arrivals[0]!.at).toBeGreaterThanOrEqual(950);
    });

    it('a Retry-After beyond maxRetryAfterMs is not waited for: a RateLimitError that says when', async () => {
      const outcome = await tryFault(makeClient, '429 beyond the ceiling', [json(429, [{ Error: 'Rate limit exceeded' }], { 'retry-after': '120' })], read, {
        maxRetryAfterMs: 5_000,
      });
      expect(outcome.error).toBeInstanceOf(RateLimitError);
      expect(outcome.error).toMatchObject({ retryAfterSeconds: 120, retryable: true });
      expect(outcome.error!.message).toContain('try again in 2 min');
      expect(outcome.arrivals).toHaveLength(1);
    });
  });

  describe('answers that are not the JSON they should be', () => {
    it('HTML instead of JSON (read): InvalidResponseError with the status and an excerpt, not retried', async () => {
      const outcome = await tryFault(
        makeClient,
        'HTML 200 (read)',
        [{ kind: 'answer', status: 200, body: HTML, headers: { 'content-type': 'text/html; charset=utf-8' } }],
        read,
      );
      expect(outcome.error).toBeInstanceOf(InvalidResponseError);
      expect(outcome.error).toMatchObject({ status: 200, endpoint: 'listTeams' satisfies EndpointKey, retryable: false });
      expect(outcome.error!.message).toContain('HTTP 200 with a body that is not JSON (text/html; charset=utf-8)');
      expect(outcome.error!.message).toContain('<h1>Maintenance</h1>');
      expect(outcome.arrivals).toHaveLength(1);
    });

    // The status is the service's word (assumption `created-id`): the create was done.
    it('HTML instead of JSON (create): done, the page passed on under answer with a note, not sent again', async () => {
      const outcome = await tryFault(
        makeClient,
        'HTML 200 (create)',
        [{ kind: 'answer', status: 200, body: HTML, headers: { 'content-type': 'text/html; charset=utf-8' } }],
        create,
      );
      expect(outcome.error).toBeUndefined();
      expect(outcome.value).toEqual({ answer: HTML, id: '', note: expect.stringContaining('gave no id that could be read') });
      expect(outcome.arrivals).toHaveLength(1);
    });

    it('JSON cut off mid-way: InvalidResponseError quoting what came', async () => {
      const cut = teamsText.slice(0, teamsText.length - 12);
      const outcome = await tryFault(
        makeClient,
        'truncated JSON',
        [{ kind: 'answer', status: 200, body: cut, headers: { 'content-type': 'application/json' } }],
        read,
      );
      expect(outcome.error).toBeInstanceOf(InvalidResponseError);
      expect(outcome.error).toMatchObject({ status: 200 });
      expect(outcome.error!.message).toContain(cut);
      expect(outcome.arrivals).toHaveLength(1);
    });
  });

  describe('connection resets', () => {
    it("before any answer: a NetworkError after the read's retries", async () => {
      const outcome = await tryFault(makeClient, 'reset before the answer', [{ kind: 'reset' }], read);
      expect(outcome.error).toBeInstanceOf(NetworkError);
      expect(outcome.error!.message).toMatch(/ECONNRESET|socket hang up/);
      expect(outcome.arrivals).toHaveLength(3);
    });

    it('mid-response on a read (headers and part of the body sent, then the socket destroyed): a NetworkError, never a hang', async () => {
      const outcome = await tryFault(
        makeClient,
        'reset mid-response (read, Content-Length)',
        [{ kind: 'reset-mid-body', status: 200, body: teamsText, cutAt: 15 }],
        read,
      );
      expect(outcome.error).toBeInstanceOf(NetworkError);
      expect(outcome.error).toMatchObject({ code: 'network', retryable: true, endpoint: 'listTeams' });
      expect(outcome.error!.message).toContain('Content-Length mismatch');
      expect(outcome.ms).toBeLessThan(5_000);
    });

    it('mid-response on a chunked read: a NetworkError after the retries', async () => {
      const outcome = await tryFault(
        makeClient,
        'reset mid-response (read, chunked)',
        [{ kind: 'reset-mid-body', status: 200, body: teamsText, cutAt: 15, chunked: true }],
        read,
      );
      expect(outcome.error).toBeInstanceOf(NetworkError);
      expect(outcome.error!.message).toMatch(/ECONNRESET/);
      expect(outcome.arrivals).toHaveLength(3);
    });

    it('mid-response on a create: a NetworkError after one attempt (it may have been done)', async () => {
      const outcome = await tryFault(
        makeClient,
        'reset mid-response (create)',
        [{ kind: 'reset-mid-body', status: 201, body: JSON.stringify(SAMPLE_INCIDENT), cutAt: 15 }],
        create,
      );
      expect(outcome.error).toBeInstanceOf(NetworkError);
      expect(outcome.arrivals).toHaveLength(1);
    });

    // A read whose answer is cut short after its headers announced a Content-Length (got's
    // ERR_HTTP_CONTENT_LENGTH_MISMATCH) is retried like the same cut in a chunked answer.
    it('a read cut short mid-response is retried, and the good second answer wins', async () => {
      const outcome = await tryFault(
        makeClient,
        'reset mid-response, then success',
        [{ kind: 'reset-mid-body', status: 200, body: teamsText, cutAt: 15 }, json(200, TEAMS)],
        read,
      );
      expect(outcome.arrivals).toHaveLength(2);
      expect(outcome.value).toEqual(TEAMS);
    });
  });
});
