import { describe, expect, it } from '@jest/globals';
import { offlineNock } from '../support/offline-nock.ts';
import nock from 'nock';
import { NetworkError, RateLimitError, ServerError, TimeoutError } from '../../shared/errors.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';
import { typedClients } from '../support/typed-clients.ts';

const KEY = 'transport-key-31c4d0';
const BASE = 'https://api.pagerly.io';
const fast = { apiKey: KEY, backoffMs: 5 };
const teams = [{ id: 't1', name: 'Platform' }];

offlineNock({ allowLoopback: true });

describe.each(typedClients)('%s transport', (_name, makeClient) => {
  it('retries a read after 5xx and answers with the later success', async () => {
    const scope = nock(BASE).get('/pagerly/o/zapier/allteams').reply(503, '').get('/pagerly/o/zapier/allteams').reply(200, teams);
    await expect(makeClient(fast).listTeams()).resolves.toEqual(teams);
    expect(scope.isDone()).toBe(true);
  });

  it('gives up after the retry limit with a server error', async () => {
    const scope = nock(BASE)
      .get('/pagerly/o/zapier/allteams')
      .times(3)
      .reply(500, [{ Error: 'boom' }]);
    await expect(makeClient(fast).listTeams()).rejects.toBeInstanceOf(ServerError);
    expect(scope.isDone()).toBe(true);
  });

  it('does not repeat a create after a 5xx: it may have been done', async () => {
    const scope = nock(BASE).post('/o/incident').once().reply(502, 'Bad Gateway');
    const extra = nock(BASE).post('/o/incident').reply(201, { id: 'inc_2' });
    await expect(makeClient(fast).createOrUpdateIncident({ title: 'Disk full' })).rejects.toBeInstanceOf(ServerError);
    expect(scope.isDone()).toBe(true);
    expect(extra.isDone()).toBe(false);
  });

  it('repeats even a create after 429, waiting the Retry-After it was given', async () => {
    nock(BASE)
      .post('/o/incident')
      .reply(429, [{ Error: 'slow down' }], { 'Retry-After': '1' });
    nock(BASE).post('/o/incident').reply(201, { id: 'inc_1', title: 'Disk full' });
    const started = Date.now();
    await expect(makeClient(fast).createOrUpdateIncident({ title: 'Disk full' })).resolves.toMatchObject({ id: 'inc_1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After above the ceiling: the caller gets it', async () => {
    nock(BASE)
      .get('/o/test/apikey')
      .reply(429, [{ Error: 'slow down' }], { 'Retry-After': '3600' });
    const error = await makeClient({ ...fast, maxRetryAfterMs: 1000 })
      .checkApiKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(3600);
  });

  it('times out a slow answer with a timeout error (real socket)', async () => {
    let requests = 0;
    const slow = await loopbackServer((_req, res) => {
      requests += 1;
      setTimeout(() => res.end('{}'), 500).unref();
    });
    try {
      const error = await makeClient({ ...fast, baseUrl: slow.url, timeoutMs: 50 })
        .checkApiKey()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toMatch(/did not answer within 0.05 s/);
      expect(requests).toBe(3); // a read is retried twice before giving up
    } finally {
      await slow.close();
    }
  });

  it('reports a reset connection as a network error without the key (real socket)', async () => {
    const resetting = await loopbackServer((req) => req.socket.destroy());
    try {
      const error = await makeClient({ ...fast, baseUrl: resetting.url })
        .checkApiKey()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/Could not reach the service at 127\.0\.0\.1:\d+ \(ECONNRESET/);
      expect(JSON.stringify(error) + String((error as Error).stack)).not.toContain(KEY);
    } finally {
      await resetting.close();
    }
  });

  it('reports a refused connection as a retryable network error', async () => {
    const error = await makeClient({ ...fast, baseUrl: await closedPort() })
      .listTeams()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).retryable).toBe(true);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('sends the key header and JSON body the catalog describes', async () => {
    const scope = nock(BASE, { reqheaders: { 'x-apikey': KEY, 'content-type': 'application/json' } })
      .post('/o/oncalluser/role', { email: 'sam@acme.test', role: 'admin' })
      .reply(200, { email: 'sam@acme.test', role: 'admin' });
    await expect(makeClient(fast).changeDirectoryRole({ email: 'sam@acme.test', role: 'admin' })).resolves.toEqual({
      email: 'sam@acme.test',
      role: 'admin',
    });
    expect(scope.isDone()).toBe(true);
  });

  it('stops reading an answer that never ends at the bound, at once, and does not ask again', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let requests = 0;
    const server = await loopbackServer((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (response.write(chunk)) if (response.destroyed) return;
        response.once('drain', more);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      more();
    });
    try {
      const started = Date.now();
      const error = await makeClient({ ...fast, baseUrl: server.url, timeoutMs: 10_000, maxBodyBytes: 1024 * 1024 })
        .listTeams()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/\(ERR_BODY_TOO_LARGE: the answer was longer than 1048576 bytes, so it was not read\)/);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The same answer would come again: a read is not retried past the bound.
      expect(requests).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('takes an answer of exactly the bound, and refuses one a byte longer that came whole', async () => {
    const exact = JSON.stringify(teams).padEnd(100, ' ');
    const answers = [exact, `${exact} `];
    const server = await loopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(answers.shift());
    });
    try {
      const client = makeClient({ ...fast, baseUrl: server.url, retries: 0, maxBodyBytes: 100 });
      await expect(client.listTeams()).resolves.toEqual(teams);
      await expect(client.listTeams()).rejects.toThrow(/the answer was longer than 100 bytes/);
    } finally {
      await server.close();
    }
  });
});
