import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidInputError, ServerError } from '../../shared/errors.ts';
import { type OnCallReader, positionAfter, TEAM_LOOKUPS, walkOnCall } from '../../shared/on-call/by-team.ts';
import { compareTeamIds, indexFrom, inIdOrder } from '../../shared/on-call/team-order.ts';
import { decodeCursor, encodeCursor, MAX_CURSOR_CHARS } from '../../shared/on-call/walk-cursor.ts';
import { runs } from '../properties/support/runs.ts';

/**
 * The one walk behind every read of who is on call (shared/on-call/by-team.ts), bounded and
 * resumable: only the teams the people wanted need, never more at once than can be needed,
 * nothing left running when it ends, and a position to go on from that a reordered team list
 * does not move.
 */

const person = (team: number, n: number) => ({ id: `u${team}.${n}`, name: `P${team}.${n}`, email: `p${team}.${n}@acme.example`, imageurl: null });

/** `teams` teams of `people(i)` people each; it records what was asked, how many at once, and what it was told to let go. */
function service(teams: number, people: (i: number) => number = () => 2, options: { delayMs?: (i: number) => number; fail?: number } = {}) {
  const listed = Array.from({ length: teams }, (_, i) => ({ id: `team_${i}`, name: `Team ${i}` }));
  const asked: string[] = [];
  let open = 0;
  let peak = 0;
  let released = 0;
  const aborts = new Set<() => void>();
  const client: OnCallReader = {
    redact: (text) => text,
    listTeams: async () => listed,
    listOnCallUsers: async (input) => {
      const name = (input as { teamname: string }).teamname;
      const i = Number(name.slice('Team '.length));
      asked.push(name);
      peak = Math.max(peak, ++open);
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, options.delayMs?.(i) ?? 2);
          const abort = () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          };
          aborts.add(abort);
        });
      } finally {
        open--;
      }
      if (i === options.fail) throw new ServerError('The service failed (HTTP 502).', { status: 502 });
      return Array.from({ length: people(i) }, (_, n) => person(i, n));
    },
  };
  const releaseRequests = () => {
    released++;
    for (const abort of aborts) abort();
  };
  return { client, asked, peak: () => peak, open: () => open, released: () => released, releaseRequests };
}

const names = (walk: Awaited<ReturnType<typeof walkOnCall>>) => walk.answers.map((answer) => answer.team.name);

describe('a walk bounded by the people wanted', () => {
  it('reads the teams that hold them, no more at once than they can need, and lets the rest go', async () => {
    const s = service(2_000);
    const walk = await walkOnCall(s.client, { enough: 10, releaseRequests: s.releaseRequests });
    expect(names(walk)).toEqual(['Team 0', 'Team 1', 'Team 2', 'Team 3', 'Team 4']);
    expect(walk.stopped).toBe('enough');
    expect(walk.nextTeam?.name).toBe('Team 5');
    expect(s.asked.length).toBeLessThanOrEqual(5 + TEAM_LOOKUPS - 1);
    expect(s.open()).toBe(0);
  });

  it('asks one team at a time for one person, and only as many as one each would fill before any answer', async () => {
    const one = service(100);
    await walkOnCall(one.client, { enough: 1 });
    expect([one.asked, one.peak()]).toEqual([['Team 0'], 1]);
    const three = service(100);
    await walkOnCall(three.client, { enough: 3 });
    expect(three.peak()).toBeLessThanOrEqual(3);
  });

  it('goes on at full pace through teams with nobody on call', async () => {
    const s = service(40, (i) => (i < 30 ? 0 : 2));
    const walk = await walkOnCall(s.client, { enough: 4 });
    expect(names(walk).at(-1)).toBe('Team 31');
    expect(s.peak()).toBe(TEAM_LOOKUPS);
  });

  it('stops as soon as what the answers weigh reaches the most, if that comes before the people wanted', async () => {
    const s = service(2_000, () => 2);
    const walk = await walkOnCall(s.client, { enough: 500, weigh: { answer: (answer) => ('onCall' in answer ? answer.onCall.length * 100 : 0), most: 1_000 } });
    expect(names(walk)).toEqual(['Team 0', 'Team 1', 'Team 2', 'Team 3', 'Team 4']);
    expect(walk.stopped).toBe('enough');
    expect(s.asked.length).toBeLessThanOrEqual(5 + TEAM_LOOKUPS - 1);
  });

  it('keeps the answers in team order whatever order they arrive in', async () => {
    const s = service(12, () => 1, { delayMs: (i) => (12 - i) * 3 });
    const walk = await walkOnCall(s.client, { enough: 12 });
    expect(walk.answers.map((answer) => ('onCall' in answer ? answer.onCall[0]!.id : 'failed'))).toEqual(Array.from({ length: 12 }, (_, i) => `u${i}.0`));
  });

  it('stops at the first team that failed: the search it serves fails then anyway', async () => {
    const s = service(2_000, () => 1, { fail: 3 });
    const walk = await walkOnCall(s.client, { enough: 50, releaseRequests: s.releaseRequests });
    expect(walk.stopped).toBe('failure');
    expect(names(walk)).toEqual(['Team 0', 'Team 1', 'Team 2', 'Team 3']);
    expect(s.asked.length).toBeLessThan(20);
  });

  it('without a bound, reads every team and keeps a failure beside the others, as before', async () => {
    const s = service(30, () => 1, { fail: 3 });
    const walk = await walkOnCall(s.client);
    expect(walk.answers).toHaveLength(30);
    expect(walk.answers.filter((answer) => 'error' in answer).map((answer) => answer.team.name)).toEqual(['Team 3']);
    expect([walk.stopped, walk.nextTeam]).toEqual([undefined, undefined]);
  });

  it('time up: returns the teams read so far in order, letting go of the ones under way', async () => {
    const s = service(100, () => 1, { delayMs: (i) => (i === 6 ? 60_000 : 2) });
    const until = AbortSignal.timeout(200);
    const walk = await walkOnCall(s.client, { enough: 50, until, releaseRequests: s.releaseRequests });
    expect(walk.stopped).toBe('until');
    expect(names(walk)).toEqual(['Team 0', 'Team 1', 'Team 2', 'Team 3', 'Team 4', 'Team 5']);
    expect([s.released(), s.open()]).toEqual([1, 0]);
  });

  it('cancelled: asks no further team, lets go of the ones under way, and throws', async () => {
    const s = service(500, () => 0, { delayMs: () => 20 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(walkOnCall(s.client, { signal: controller.signal, releaseRequests: s.releaseRequests })).rejects.toThrow('cancelled');
    const asked = s.asked.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.asked.length).toBe(asked);
    expect(asked).toBeLessThan(100);
    expect(s.open()).toBe(0);
  });

  it('tells its progress: teams read (those before where it started too) of all, only growing', async () => {
    const s = service(50);
    const told: [number, number][] = [];
    const first = await walkOnCall(s.client, { enough: 20, inIdOrder: true, onProgress: (read, total) => told.push([read, total]) });
    expect(told[0]).toEqual([0, 50]);
    expect(told.at(-1)).toEqual([first.answers.length, 50]);
    expect(told.every(([read], i) => i === 0 || read > told[i - 1]![0])).toBe(true);
    told.length = 0;
    await walkOnCall(s.client, { enough: 20, from: positionAfter(first, 20), onProgress: (read, total) => told.push([read, total]) });
    expect(told[0]).toEqual([10, 50]);
  });
});

describe('a position to go on from', () => {
  it('inside a team: the people of it already given are left out', async () => {
    const s = service(10, () => 3);
    const first = await walkOnCall(s.client, { enough: 4, inIdOrder: true });
    const at = positionAfter(first, 4);
    expect(at).toEqual({ teamId: 'team_1', skip: 1 });
    const next = await walkOnCall(s.client, { enough: 4, from: at });
    expect(next.skipped).toBe(1);
    expect(next.answers.flatMap((answer) => ('onCall' in answer ? answer.onCall.map((p) => p.id) : []))).toEqual(['u1.1', 'u1.2', 'u2.0', 'u2.1', 'u2.2']);
    expect(positionAfter(next, 2)).toEqual({ teamId: 'team_2', skip: 0 });
    expect(positionAfter(next, 3)).toEqual({ teamId: 'team_2', skip: 1 });
  });

  it('at the end: none', async () => {
    const s = service(3);
    const walk = await walkOnCall(s.client, { enough: 100, inIdOrder: true });
    expect(positionAfter(walk, 6)).toBeUndefined();
  });

  it('a team removed meanwhile: the walk goes on at the team after it, skipping no one', () => {
    const sorted = inIdOrder([
      { id: 'team_1', name: 'a' },
      { id: 'team_3', name: 'b' },
      { id: 'team_10', name: 'c' },
    ]);
    expect(indexFrom(sorted, 'team_2')).toBe(1);
    expect(indexFrom(sorted, 'team_3')).toBe(1);
    expect(indexFrom(sorted, 'team_4')).toBe(2);
    expect(indexFrom(sorted, 'team_99')).toBe(3);
  });
});

describe('the order of teams by id', () => {
  it('reads numbers as numbers, the rest by code unit, with no locale', () => {
    const ids = [
      'team_10',
      'team_2',
      'Team_1',
      'team_02',
      'team_1a',
      'team_1',
      'é',
      'z',
      '',
      '10',
      '9',
      'team_18446744073709551617',
      'team_18446744073709551616',
    ];
    expect(inIdOrder(ids.map((id) => ({ id, name: id }))).map((team) => team.id)).toEqual([
      '',
      '9',
      '10',
      'Team_1',
      'team_1',
      'team_1a',
      'team_02',
      'team_2',
      'team_10',
      'team_18446744073709551616',
      'team_18446744073709551617',
      'z',
      'é',
    ]);
  });

  it('is a total order: antisymmetric, transitive, equal only for the same id', () => {
    const id = fc.stringMatching(/^[a-c0-2_]{0,6}$/);
    fc.assert(
      fc.property(id, id, id, (a, b, c) => {
        expect(Math.sign(compareTeamIds(a, b)) + Math.sign(compareTeamIds(b, a))).toBe(0);
        expect(compareTeamIds(a, b) === 0).toBe(a === b);
        if (compareTeamIds(a, b) <= 0 && compareTeamIds(b, c) <= 0) expect(compareTeamIds(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('the cursor', () => {
  const scope = { teamname: undefined, team_contains: 'Pay' };

  it('gives back the position it was made from, for the same arguments (letter case and spaces aside)', () => {
    const cursor = encodeCursor({ teamId: 'team_7', skip: 1 }, scope);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor, { teamname: '', team_contains: '  pay ' })).toEqual({ teamId: 'team_7', skip: 1 });
  });

  it('is refused for other arguments, or when it is not one, with what to do', () => {
    const cursor = encodeCursor({ teamId: 'team_7', skip: 0 }, scope);
    expect(() => decodeCursor(cursor, { teamname: undefined, team_contains: undefined })).toThrow(InvalidInputError);
    for (const bad of ['', 'x', cursor.slice(0, -2), `${cursor}==`, 'a'.repeat(MAX_CURSOR_CHARS + 1)])
      expect(() => decodeCursor(bad, scope)).toThrow(/is not a cursor this server gave/);
  });

  it('cuts a very long id, so that it stays short and goes on at or before its team: people repeated, never skipped', () => {
    const id = `team_${'x'.repeat(5_000)}`;
    const cursor = encodeCursor({ teamId: id, skip: 3 }, scope);
    expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_CHARS);
    const at = decodeCursor(cursor, scope);
    expect(compareTeamIds(at.teamId, id)).toBeLessThan(0);
  });
});
