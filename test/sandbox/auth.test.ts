import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, INVALID_KEY_BODY, startSandbox, type Running } from './support.ts';

describe('sandbox: API keys', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const routes: [string, string][] = [
    ['GET', '/o/zapier/allteams'],
    ['GET', '/pagerly/o/zapier/allteams'],
    ['GET', '/pagerly/o/currentusers?teamname=Platform'],
    ['GET', '/o/test/apikey'],
    ['POST', '/o/incident'],
    ['GET', '/o/oncalluser?email=alan@acme.example'],
    ['POST', '/o/oncalluser/phone'],
    ['DELETE', '/o/oncalluser?email=alan@acme.example'],
    ['POST', '/o/zapier/subscribe'],
    ['DELETE', '/o/make/subscribe/sub_0001'],
  ];

  it.each(routes)('%s %s without X-APIKEY: 400 with the documented body, byte for byte', async (method, path) => {
    const answer = await s.call(path, { method });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.text).toBe(INVALID_KEY_BODY);
  });

  it.each([
    ['an unknown key', 'sbx_acme_admin_7c1f3a9e52d6b08d'],
    ['an empty key', ''],
    ['a prefix of a good key', demoKeys.acmeAdmin.slice(0, 20)],
  ])('refuses %s the same way', async (_, key) => {
    const answer = await s.call('/pagerly/o/zapier/allteams', { key });
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(INVALID_KEY_BODY);
  });

  it('checks the key before reading the body: a bad key with invalid JSON still hears about the key', async () => {
    const answer = await s.call('/o/incident', { method: 'POST', key: 'nope-nope-nope-nope', rawBody: '{"title":' });
    expect(answer.text).toBe(INVALID_KEY_BODY);
  });

  it('GET /o/test/apikey says whose key it is and never shows the key', async () => {
    const answer = await s.call('/o/test/apikey', { key: demoKeys.acmeAdmin });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      valid: true,
      user: { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@acme.example', role: 'admin' },
      organization: { id: 'org_acme', name: 'Acme' },
    });
    expect(answer.text).not.toContain(demoKeys.acmeAdmin);
  });

  it('serves every path under both bases', async () => {
    const api = await s.call('/o/test/apikey', { key: demoKeys.globexAdmin });
    const rotations = await s.call('/pagerly/o/test/apikey', { key: demoKeys.globexAdmin });
    expect(rotations.status).toBe(200);
    expect(rotations.text).toBe(api.text);
    expect(api.json.organization).toEqual({ id: 'org_globex', name: 'Globex' });
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const answer = await s.call('/o/nothing/here', { key: demoKeys.acmeUser });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual([{ Error: 'No route GET /o/nothing/here' }]);
  });

  it('the /_sandbox controls need no key', async () => {
    const answer = await s.call('/_sandbox/clock');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ now: '2026-11-02T08:00:00.000Z', mode: 'fixed' });
  });
});
