import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoKeys, HOUR, startSandbox, tinySeed, type Running } from './support.ts';

const alan = { id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', imageurl: 'https://images.acme.example/alan.png' };
const katherine = { id: 'usr_katherine', name: 'Katherine Johnson', email: 'katherine@acme.example', imageurl: null };
const grace = { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@acme.example', imageurl: 'https://images.acme.example/grace.png' };
const edsger = { id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: 'https://images.acme.example/edsger.png' };

describe('sandbox: teams and who is on call (demo seed, clock fixed at 2026-11-02T08:00Z)', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.sandbox.close());

  const onCall = async (query = '', key = demoKeys.acmeUser, base = '/pagerly') => s.call(`${base}/o/currentusers${query}`, { key });

  it("allteams lists the organization's teams as {id, name}", async () => {
    const answer = await s.call('/pagerly/o/zapier/allteams', { key: demoKeys.acmeUser });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { id: 'team_platform', name: 'Platform' },
      { id: 'team_payments', name: 'Payments' },
      { id: 'team_mobile', name: 'Mobile' },
    ]);
  });

  it('currentusers gives exactly the four documented fields, keeping imageurl null', async () => {
    const answer = await onCall('?teamname=Payments');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([katherine, grace]);
    expect(answer.text).toContain('"imageurl":null');
    for (const user of answer.json) expect(Object.keys(user).sort()).toEqual(['email', 'id', 'imageurl', 'name']);
  });

  it('puts two people on call at once for a team with two rotation layers', async () => {
    expect((await onCall('?teamname=Payments')).json).toHaveLength(2);
  });

  it('answers [] for a team nobody is on call for', async () => {
    const answer = await onCall('?teamname=Mobile');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('[]');
  });

  it('without teamname gives everybody on call in any team, each once', async () => {
    expect((await onCall()).json).toEqual([alan, katherine, grace]);
  });

  it('matches team names trimmed and ignoring case, on both bases', async () => {
    const exact = await onCall('?teamname=Platform');
    expect(exact.json).toEqual([alan]);
    expect((await onCall('?teamname=%20pLaTfOrM%20')).text).toBe(exact.text);
    expect((await onCall('?teamname=platform', demoKeys.acmeUser, '')).text).toBe(exact.text);
  });

  it('answers 404 naming the team when no team has that name', async () => {
    const answer = await onCall('?teamname=Platforms');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual([{ Error: 'No team named "Platforms" in this organization' }]);
  });

  it('refuses an empty team name as bad input', async () => {
    const answer = await onCall('?teamname=%20');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual([{ Error: 'teamname must name a team' }]);
  });

  it('follows the clock across the 09:00 UTC handover, and back', async () => {
    await s.sandbox.clock.advance(HOUR);
    expect((await onCall('?teamname=Platform')).json).toEqual([edsger]);
    expect((await onCall('?teamname=Payments')).json).toEqual([edsger, grace]);
    expect((await onCall()).json).toEqual([edsger, grace]);
    await s.sandbox.clock.set('2026-11-02T08:00:00Z');
    expect((await onCall('?teamname=Platform')).json).toEqual([alan]);
  });

  it('keeps organizations apart: teams of another organization do not exist for a key', async () => {
    expect((await s.call('/pagerly/o/zapier/allteams', { key: demoKeys.globexAdmin })).json).toEqual([{ id: 'team_operations', name: 'Operations' }]);
    expect((await onCall('?teamname=Operations')).status).toBe(404);
    expect((await onCall('?teamname=Platform', demoKeys.globexAdmin)).status).toBe(404);
    expect((await onCall('', demoKeys.globexAdmin)).json).toEqual([
      { id: 'usr_rosalind', name: 'Rosalind Franklin', email: 'rosalind@globex.example', imageurl: 'https://images.globex.example/rosalind.png' },
    ]);
  });
});

describe('sandbox: an organization without teams', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startSandbox({ seed: tinySeed });
  });
  afterAll(() => s.sandbox.close());

  it('allteams and currentusers answer []', async () => {
    const key = 'sbx_solo_owner_0000000000000001';
    const teams = await s.call('/pagerly/o/zapier/allteams', { key });
    expect([teams.status, teams.text]).toEqual([200, '[]']);
    const users = await s.call('/pagerly/o/currentusers', { key });
    expect([users.status, users.text]).toEqual([200, '[]']);
  });
});

describe('sandbox: a real clock', () => {
  it('follows wall time', async () => {
    const s = await startSandbox({ clock: { mode: 'real' } });
    try {
      expect(Math.abs(s.sandbox.clock.now().getTime() - Date.now())).toBeLessThan(1000);
      await s.sandbox.clock.advance(HOUR);
      expect(s.sandbox.clock.now().getTime() - Date.now()).toBeGreaterThan(HOUR - 1000);
      expect((await s.call('/pagerly/o/currentusers?teamname=Payments', { key: demoKeys.acmeUser })).json).toHaveLength(2);
    } finally {
      await s.sandbox.close();
    }
  });
});
