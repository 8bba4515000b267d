import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { createSandbox, readSeedFile, SeedError, type Seed } from '../../sandbox/index.ts';
import { demoSeed } from '../../sandbox/seed/demo.ts';
import { demoKeys, startSandbox, tinySeed } from './support.ts';

describe('sandbox: /_sandbox/clock', () => {
  it('reads and moves the fixed clock, running the change check', async () => {
    const s = await startSandbox();
    try {
      expect((await s.call('/_sandbox/clock')).json).toEqual({ now: '2026-11-02T08:00:00.000Z', mode: 'fixed' });
      const advanced = await s.call('/_sandbox/clock', { method: 'POST', body: { advanceMs: 3_600_000 } });
      expect(advanced.json).toEqual({ now: '2026-11-02T09:00:00.000Z', mode: 'fixed' });
      expect((await s.call('/pagerly/o/currentusers?teamname=Platform', { key: demoKeys.acmeUser })).json[0].id).toBe('usr_edsger');

      const set = await s.call('/_sandbox/clock', { method: 'POST', body: { set: '2026-11-03T21:30:00Z' } });
      expect(set.json.now).toBe('2026-11-03T21:30:00.000Z');
      expect(s.sandbox.clock.now().toISOString()).toBe('2026-11-03T21:30:00.000Z');

      const bad = await s.call('/_sandbox/clock', { method: 'POST', body: { advanceMs: 'soon' } });
      expect([bad.status, bad.json]).toEqual([400, [{ Error: 'send {"advanceMs": <milliseconds>} or {"set": "<ISO 8601 time>"}' }]]);
    } finally {
      await s.sandbox.close();
    }
  });

  it('starts the fixed clock where asked', async () => {
    const s = await startSandbox({ clock: { mode: 'fixed', start: '2027-01-01T00:00:00Z' } });
    try {
      expect(s.sandbox.clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    } finally {
      await s.sandbox.close();
    }
  });

  it('has no control routes with controls: false', async () => {
    const s = await startSandbox({ controls: false });
    try {
      expect((await s.call('/_sandbox/clock')).status).toBe(404);
      expect((await s.call('/_sandbox/faults', { method: 'DELETE' })).status).toBe(404);
    } finally {
      await s.sandbox.close();
    }
  });
});

describe('sandbox: seeds', () => {
  const withOrg = (change: (org: Seed['organizations'][number]) => void): Seed => {
    const seed = structuredClone(tinySeed);
    change(seed.organizations[0]!);
    return seed;
  };

  it('names the bad field of a seed', async () => {
    const badPhone = withOrg((org) => {
      org.people[0]!.phone = '555-0100';
    });
    await expect(createSandbox({ seed: badPhone })).rejects.toThrow(
      new SeedError(
        'The seed given to createSandbox is not a valid sandbox seed: organizations.0.people.0.phone must be in international format (E.164), e.g. +14155550123, or null',
      ),
    );
  });

  it('names broken references and repeats', async () => {
    const broken = withOrg((org) => {
      org.apiKeys.push({ key: 'sbx_solo_ghost_00000000000002', personId: 'usr_ghost' });
      org.teams.push({ id: 'team_a', name: 'Alpha' }, { id: 'team_b', name: ' alpha' });
      org.rotations.push({ id: 'rot_a', teamId: 'team_z', participants: ['usr_sam'], start: '2026-01-01T00:00:00Z', shiftHours: 24 });
    });
    const error = await createSandbox({ seed: broken }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedError);
    const message = (error as Error).message;
    expect(message).toContain('organizations.0.apiKeys.1.personId names no person of organization "org_solo": "usr_ghost"');
    expect(message).toContain('organizations.0.teams.1.name repeats the team name "alpha"');
    expect(message).toContain('organizations.0.rotations.0.teamId names no team of organization "org_solo": "team_z"');
  });

  it('reads seed files, saying which file is wrong', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-seed-'));
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify(tinySeed));
    expect(readSeedFile(good).organizations[0]?.name).toBe('Solo');
    const notJson = join(dir, 'broken.json');
    await writeFile(notJson, '{"clockStart":');
    expect(() => readSeedFile(notJson)).toThrow(`The seed file ${notJson} is not valid JSON`);
    expect(() => readSeedFile(join(dir, 'missing.json'))).toThrow(/Cannot read the seed file/);
  });

  it('the demo seed has what the demos need', () => {
    const [acme, globex] = demoSeed.organizations;
    expect(acme?.people.map((p) => p.role).sort()).toEqual(['admin', 'owner', 'user', 'user', 'user', 'user']);
    expect(acme?.people.some((p) => p.imageurl === null)).toBe(true);
    expect(acme?.teams.map((t) => t.name)).toEqual(['Platform', 'Payments', 'Mobile']);
    expect(acme?.rotations.filter((r) => r.teamId === 'team_payments')).toHaveLength(2);
    expect(globex?.teams.map((t) => t.name)).toEqual(['Operations']);
    expect(Object.values(demoKeys).every((key) => key.startsWith('sbx_'))).toBe(true);
  });
});

describe('sandbox: determinism', () => {
  it('answers the same calls in the same order byte for byte', async () => {
    const script = async () => {
      const s = await startSandbox();
      try {
        const texts: string[] = [];
        const run = async (...args: Parameters<typeof s.call>) => texts.push((await s.call(...args)).text);
        await run('/o/incident', { method: 'POST', key: demoKeys.acmeUser, body: { title: 'A' } });
        await run('/o/oncalluser', { method: 'POST', key: demoKeys.acmeAdmin, body: { email: 'n@acme.example', name: 'N' } });
        await run('/o/make/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url: 'http://127.0.0.1:9/hook' } });
        await s.sandbox.clock.advance(3_600_000);
        await run('/o/incident', { method: 'POST', key: demoKeys.acmeUser, body: { id: 'inc_0001', title: 'A', status: 'resolved' } });
        await run('/pagerly/o/currentusers', { key: demoKeys.acmeUser });
        return texts;
      } finally {
        await s.sandbox.close();
      }
    };
    const [first, second] = [await script(), await script()];
    expect(second).toEqual(first);
    expect(first[0]).toContain('"id":"inc_0001"');
  });
});
