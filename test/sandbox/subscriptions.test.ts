import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, startSandbox, type Running } from './support.ts';

describe('sandbox: hook subscriptions', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const subscribe = (platform: string, body: unknown, key = demoKeys.acmeUser) => s.call(`/o/${platform}/subscribe`, { method: 'POST', key, body });
  const unsubscribe = (platform: string, id: string, key = demoKeys.acmeUser) => s.call(`/o/${platform}/subscribe/${id}`, { method: 'DELETE', key });

  it('subscribes for every team: 201 {id, url, teamname: null, platform, created_at}', async () => {
    const answer = await subscribe('zapier', { url: 'https://hooks.zapier.example/catch/1' });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      id: 'sub_0001',
      url: 'https://hooks.zapier.example/catch/1',
      teamname: null,
      platform: 'zapier',
      created_at: '2026-11-02T08:00:00.000Z',
    });
  });

  it("subscribes for one team, named in the team's own spelling, with the platform of the path", async () => {
    const answer = await subscribe('make', { url: 'https://hook.make.example/abc', teamname: 'PAYMENTS' });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ id: 'sub_0002', teamname: 'Payments', platform: 'make' });
    expect(s.sandbox.world.subscriptions.get('sub_0002')).toMatchObject({ orgId: 'org_acme', teamId: 'team_payments' });
  });

  it.each([
    [{ url: 'ftp://files.example/x' }, 400, 'url must be an http or https URL'],
    [{ url: 'not a url' }, 400, 'url must be an http or https URL'],
    [{}, 400, 'url is required'],
    [{ url: 'https://x.example', teamname: 7 }, 400, 'teamname must be a string, not a number'],
    [{ url: 'https://x.example', teamname: 'Operations' }, 404, 'No team named "Operations" in this organization'],
  ])('refuses %j', async (body, status, text) => {
    const answer = await subscribe('zapier', body);
    expect([answer.status, answer.json]).toEqual([status, [{ Error: text }]]);
  });

  it('finds a subscription only under its own platform and organization', async () => {
    const otherPlatform = await unsubscribe('make', 'sub_0001');
    expect([otherPlatform.status, otherPlatform.json]).toEqual([404, [{ Error: 'No make subscription with id "sub_0001" in this organization' }]]);
    expect((await unsubscribe('zapier', 'sub_0001', demoKeys.globexAdmin)).status).toBe(404);
    expect(s.sandbox.world.subscriptions.has('sub_0001')).toBe(true);
  });

  it('unsubscribes: 200 {id, removed: true}, then 404', async () => {
    const answer = await unsubscribe('zapier', 'sub_0001');
    expect([answer.status, answer.json]).toEqual([200, { id: 'sub_0001', removed: true }]);
    expect(s.sandbox.world.subscriptions.has('sub_0001')).toBe(false);
    expect((await unsubscribe('zapier', 'sub_0001')).status).toBe(404);
    expect((await unsubscribe('make', 'sub_0002', demoKeys.acmeAdmin)).status).toBe(200);
  });
});
