import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../cli/main.ts';
import { watchOnCall } from '../../cli/watch/watch-on-call.ts';
import { parseInterval } from '../../cli/watch/interval.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import type { OnCallChange } from '../../shared/on-call/changes.ts';
import { Capture } from './support.ts';

const HOUR = 3_600_000;

let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  url = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

/** Counts the requests the watcher sends, by path, through the real client. */
function countingClient() {
  const client = createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url, retries: 0 });
  const calls: string[] = [];
  return {
    calls,
    client: {
      redact: client.redact,
      listTeams: () => {
        calls.push('allteams');
        return client.listTeams();
      },
      listOnCallUsers: (input?: { teamname?: string }) => {
        calls.push(`currentusers?teamname=${input?.teamname ?? ''}`);
        return client.listOnCallUsers(input);
      },
    },
  };
}

/** Runs the watcher for `looks` looks; between two looks the sandbox's clock moves on by `stepMs`. */
async function watch(options: { looks: number; stepMs: number; team?: string; stateFile?: string }) {
  const changes: OnCallChange[] = [];
  const notes: string[] = [];
  const stop = new AbortController();
  const { client, calls } = countingClient();
  let looks = 0;
  await watchOnCall({
    client,
    team: options.team,
    intervalMs: 60_000,
    stateFile: options.stateFile,
    signal: stop.signal,
    emit: (change) => changes.push(change),
    note: (text) => notes.push(text),
    now: () => sandbox.clock.now(),
    wait: async () => {
      if (++looks >= options.looks) stop.abort();
      else await sandbox.clock.advance(options.stepMs);
    },
  });
  return { changes, notes, calls };
}

const summary = (changes: readonly OnCallChange[]) => changes.map((c) => `${c.type} ${c.team.name} ${c.user.name}`);

describe('on-call watch: changes from documented calls only', () => {
  it('the first look prints nothing; a person going off call and back on is two changes', async () => {
    // Payments' primary rotation hands over every 12 hours between Edsger and Katherine.
    const { changes, notes, calls } = await watch({ looks: 3, stepMs: 12 * HOUR, team: 'payments' });
    expect(summary(changes)).toEqual([
      expect.stringMatching(/^on_call_ended Payments /),
      expect.stringMatching(/^on_call_started Payments /),
      expect.stringMatching(/^on_call_ended Payments /),
      expect.stringMatching(/^on_call_started Payments /),
    ]);
    const [firstOff, firstOn, secondOff, secondOn] = changes;
    expect(secondOff!.user.name).toBe(firstOn!.user.name);
    expect(secondOn!.user.name).toBe(firstOff!.user.name);
    expect(changes.every((c) => c.team.id === 'team_payments' && c.detected_at.endsWith('Z'))).toBe(true);
    expect(notes[0]).toMatch(/^Watching 1 team every 60 s: \d+ on call now\./);
    // Each look: the team list, then the one team by name; never currentusers without a team.
    expect(calls).toEqual(Array.from({ length: 3 }, () => ['allteams', 'currentusers?teamname=Payments']).flat());
  });

  it('every team: one request for the teams and one per team a look, each change carries its team', async () => {
    const { changes, calls } = await watch({ looks: 2, stepMs: 24 * HOUR });
    const teams = await createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url }).listTeams();
    expect(calls.filter((c) => c === 'allteams')).toHaveLength(2);
    expect(calls.filter((c) => c.startsWith('currentusers?teamname='))).toHaveLength(2 * teams.length);
    expect(calls.some((c) => c === 'currentusers?teamname=')).toBe(false);
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) expect(teams.map((t) => t.id)).toContain(change.team.id);
  });

  it('a state file carries the last look across a restart: what changed meanwhile is printed first', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pagerly-watch-')), 'state.json');
    const first = await watch({ looks: 1, stepMs: 0, team: 'Platform', stateFile });
    expect(first.changes).toEqual([]);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ version: 1, team: 'Platform', snapshot: { team_platform: { name: 'Platform' } } });
    await sandbox.clock.advance(24 * HOUR); // Platform's daily handover, while nobody watches
    const second = await watch({ looks: 1, stepMs: 0, team: 'Platform', stateFile });
    expect(summary(second.changes)).toEqual([expect.stringMatching(/^on_call_ended Platform /), expect.stringMatching(/^on_call_started Platform /)]);
    // A state file of another team is no baseline: started afresh, said so.
    const other = await watch({ looks: 1, stepMs: 0, team: 'Payments', stateFile });
    expect(other.changes).toEqual([]);
    expect(other.notes[0]).toMatch(/written for team Platform; starting afresh for team Payments/);
  });

  it('a state file that is not one is said and overwritten, not a crash', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pagerly-watch-')), 'state.json');
    writeFileSync(stateFile, 'not json');
    const { notes, changes } = await watch({ looks: 1, stepMs: 0, stateFile });
    expect(changes).toEqual([]);
    expect(notes[0]).toMatch(/is not a watch state; starting afresh/);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).version).toBe(1);
  });

  it('an unknown team ends the watch, naming close matches only', async () => {
    await expect(watch({ looks: 2, stepMs: 0, team: 'No Such Team' })).rejects.toThrow(
      /^No team named "No Such Team"\. None of the organization's 3 teams has a close name\.$/,
    );
    await expect(watch({ looks: 2, stepMs: 0, team: 'Paymnts' })).rejects.toThrow(/^No team named "Paymnts"\. Close match: "Payments"\.$/);
  });
});

describe('pagerly on-call watch, the command', () => {
  it('prints nothing on its first look, keeps the state, and stops cleanly (exit 0) on Ctrl-C', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pagerly-watch-')), 'state.json');
    const stdout = new Capture();
    const stderr = new Capture();
    const interrupt = new AbortController();
    const done = main(
      ['--base-url', url, 'on-call', 'watch', '--interval', '1s', '--state', stateFile],
      { PAGERLY_API_KEY: demoKeys.acmeAdmin },
      {
        stdout,
        stderr,
        signal: interrupt.signal,
      },
    );
    while (!stderr.text.includes('Watching')) await new Promise((resolve) => setTimeout(resolve, 20));
    interrupt.abort();
    expect(await done).toBe(0);
    expect(stdout.text).toBe('');
    expect(stderr.text).toMatch(
      /Watching 3 teams every 1 s: \d+ on call now\. Ctrl-C stops\.\n(?:pagerly on-call watch: SIGINT: closing the watch.*\n)?Stopped; the last look is kept in /,
    );
    expect(stderr.text).not.toContain(demoKeys.acmeAdmin);
    expect(Object.keys(JSON.parse(readFileSync(stateFile, 'utf8')).snapshot)).toEqual(['team_platform', 'team_payments', 'team_mobile']);
  });

  it('--once: one look, then exit; with --json one document of the changes since the state file', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pagerly-watch-')), 'state.json');
    const once = (json: boolean) => {
      const stdout = new Capture();
      const argv = ['--base-url', url, ...(json ? ['--json'] : []), 'on-call', 'watch', '--once', '--team', 'Payments', '--state', stateFile];
      return main(argv, { PAGERLY_API_KEY: demoKeys.acmeAdmin }, { stdout, stderr: new Capture() }).then((code) => ({ code, stdout: stdout.text }));
    };
    expect(await once(false)).toEqual({ code: 0, stdout: '' });
    await sandbox.clock.advance(12 * HOUR);
    const { code, stdout } = await once(true);
    expect(code).toBe(0);
    const changes: OnCallChange[] = JSON.parse(stdout).changes;
    expect(new Set(changes.map((c) => c.type))).toEqual(new Set(['on_call_ended', 'on_call_started']));
    expect(changes.every((c) => c.team.name === 'Payments')).toBe(true);
  });

  it.each(['0s', '500ms', 'soon', '-5'])('--interval %s is refused before any request (exit 2)', async (interval) => {
    const stderr = new Capture();
    const code = await main(
      ['--base-url', 'http://127.0.0.1:9', 'on-call', 'watch', '--interval', interval],
      { PAGERLY_API_KEY: 'k' },
      { stdout: new Capture(), stderr },
    );
    expect(code).toBe(2);
    expect(stderr.text).toContain('is not a time of at least 1s');
  });

  it('reads times as people write them', () => {
    expect([parseInterval('90'), parseInterval('90s'), parseInterval('5m'), parseInterval('1h'), parseInterval('1500ms')]).toEqual([
      90_000, 90_000, 300_000, 3_600_000, 1_500,
    ]);
    expect(parseInterval('5 minutes')).toBeUndefined();
  });
});
