import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, INVALID_KEY_BODY, startSandbox, type Running } from './support.ts';

describe('sandbox: rate limit per API key', () => {
  let s: Running;
  // The window's own clock, moved by the test: a loaded machine's requests never outlast it.
  let now = 0;
  beforeAll(async () => {
    s = await startSandbox({ rateLimit: { limit: 3, windowMs: 400, now: () => now } });
  });
  afterAll(() => s.sandbox.close());

  it('answers 429 with Retry-After past the limit, per key, and opens again after the window', async () => {
    const teams = (key: string, base = '/pagerly') => s.call(`${base}/o/zapier/allteams`, { key });
    expect((await teams(demoKeys.acmeUser)).status).toBe(200);
    expect((await teams(demoKeys.acmeUser, '')).status).toBe(200);
    expect((await teams(demoKeys.acmeUser)).status).toBe(200);

    const limited = await teams(demoKeys.acmeUser);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.json).toEqual([{ Error: 'Rate limit exceeded; retry after 1 second' }]);

    expect((await teams(demoKeys.acmeAdmin)).status).toBe(200);
    now += 399;
    expect((await teams(demoKeys.acmeUser)).status).toBe(429);
    now += 1;
    expect((await teams(demoKeys.acmeUser)).status).toBe(200);
  });

  it('says how many seconds are left with a longer window', async () => {
    const slow = await startSandbox({ rateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      await slow.call('/o/test/apikey', { key: demoKeys.globexAdmin });
      const limited = await slow.call('/o/test/apikey', { key: demoKeys.globexAdmin });
      expect([limited.status, limited.headers.get('retry-after'), limited.json]).toEqual([
        429,
        '60',
        [{ Error: 'Rate limit exceeded; retry after 60 seconds' }],
      ]);
    } finally {
      await slow.sandbox.close();
    }
  });
});

describe('sandbox: injected faults', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const teams = (key = demoKeys.acmeUser) => s.call('/pagerly/o/zapier/allteams', { key });

  it('answers a matching request with the fault once, after the key is checked, then normally', async () => {
    s.sandbox.faults.inject({
      path: '/o/zapier/allteams',
      status: 500,
      body: '<html><body>Internal Server Error</body></html>',
      contentType: 'text/html; charset=utf-8',
    });
    expect((await s.call('/pagerly/o/zapier/allteams')).text).toBe(INVALID_KEY_BODY);
    expect((await teams('not-a-key-of-this-sandbox')).text).toBe(INVALID_KEY_BODY);

    const faulted = await teams();
    expect(faulted.status).toBe(500);
    expect(faulted.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(faulted.text).toBe('<html><body>Internal Server Error</body></html>');
    expect((await teams()).status).toBe(200);
  });

  it('sends truncated JSON byte for byte, `times` times, with extra headers', async () => {
    s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 200, body: '[{"id":"team_pla', times: 2, headers: { 'x-fault': 'yes' } });
    for (let i = 0; i < 2; i += 1) {
      const answer = await teams();
      expect([answer.status, answer.text, answer.headers.get('content-type'), answer.headers.get('x-fault')]).toEqual([
        200,
        '[{"id":"team_pla',
        'application/json; charset=utf-8',
        'yes',
      ]);
    }
    expect((await teams()).json).toHaveLength(3);
  });

  it('matches by method and by catalog path, and waits delayMs', async () => {
    s.sandbox.faults.inject({
      method: 'delete',
      path: '/o/zapier/subscribe/{id}',
      status: 429,
      body: '[{"Error":"slow down"}]',
      headers: { 'retry-after': '7' },
      delayMs: 50,
    });
    expect((await s.call('/o/zapier/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url: 'https://x.example/h' } })).status).toBe(201);
    const started = Date.now();
    const answer = await s.call('/o/zapier/subscribe/sub_0001', { method: 'DELETE', key: demoKeys.acmeUser });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect([answer.status, answer.headers.get('retry-after'), answer.text]).toEqual([429, '7', '[{"Error":"slow down"}]']);
    expect(s.sandbox.world.subscriptions.has('sub_0001')).toBe(true);
  });

  it('takes faults over HTTP at /_sandbox/faults, and clears them', async () => {
    const injected = await s.call('/_sandbox/faults', { method: 'POST', body: { path: '/o/test/apikey', status: 503, body: '', times: 5 } });
    expect(injected.status).toBe(201);
    expect((await s.call('/o/test/apikey', { key: demoKeys.acmeUser })).status).toBe(503);
    expect((await s.call('/_sandbox/faults', { method: 'DELETE' })).json).toEqual({ cleared: true });
    expect((await s.call('/o/test/apikey', { key: demoKeys.acmeUser })).status).toBe(200);

    const bad = await s.call('/_sandbox/faults', { method: 'POST', body: { path: 'o/test', status: 'x', body: '' } });
    expect([bad.status, bad.json]).toEqual([400, [{ Error: 'path must start with /, e.g. /o/zapier/allteams; status must be a number, not a string' }]]);
  });

  it('lists the faults still waiting at GET /_sandbox/faults, each with how many requests it has left', async () => {
    expect((await s.call('/_sandbox/faults')).json).toEqual({ faults: [] });
    await s.call('/_sandbox/faults', { method: 'POST', body: { method: 'POST', path: '/o/incident', status: 503, body: '[{"Error":"down"}]', times: 2 } });
    s.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 500, body: 'oops', contentType: 'text/plain' });
    const listed = await s.call('/_sandbox/faults');
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({
      faults: [
        { method: 'POST', path: '/o/incident', status: 503, body: '[{"Error":"down"}]', times: 2, remaining: 2 },
        { path: '/o/zapier/allteams', status: 500, body: 'oops', contentType: 'text/plain', remaining: 1 },
      ],
    });
    // A request that meets one uses it up; what is left is listed.
    expect((await s.call('/o/incident', { method: 'POST', key: demoKeys.acmeUser, body: { title: 'x' } })).status).toBe(503);
    expect((await teams()).status).toBe(500);
    expect((await s.call('/_sandbox/faults')).json).toEqual({ faults: [expect.objectContaining({ path: '/o/incident', remaining: 1 })] });
    await s.call('/_sandbox/faults', { method: 'DELETE' });
    expect((await s.call('/_sandbox/faults')).json).toEqual({ faults: [] });
  });

  it('refuses a malformed fault given in code', () => {
    expect(() => s.sandbox.faults.inject({ path: '/o/incident', status: 42, body: '' })).toThrow('Not a usable fault: status must be an HTTP status');
  });

  it('turns an unexpected error into a bare 500 that leaks nothing', async () => {
    const world = s.sandbox.world as unknown as { teamsOf: () => never };
    const teamsOf = world.teamsOf;
    world.teamsOf = () => {
      throw new Error(`database exploded near ${demoKeys.acmeUser}`);
    };
    try {
      const answer = await teams();
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual([{ Error: 'The sandbox failed unexpectedly while handling this request' }]);
      expect(answer.text).not.toContain('exploded');
      expect(answer.text).not.toContain(demoKeys.acmeUser);
    } finally {
      world.teamsOf = teamsOf;
    }
  });
});
