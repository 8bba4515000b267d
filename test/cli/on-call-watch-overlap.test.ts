import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STALE_LOCK_MS } from '../../cli/watch/state-lock.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import type { OnCallChange } from '../../shared/on-call/changes.ts';
import { loopbackServer } from '../support/loopback-server.ts';

/**
 * Cron runs of `pagerly on-call watch --once --state FILE` that overlap, as real processes
 * against the sandbox. Payments' primary rotation hands over every 12 hours (Edsger Dijkstra
 * and Katherine Johnson take turns). In front of the sandbox, a relay can turn the rota (move
 * the sandbox's clock 12 h) as each look begins, and holds every look's team list a moment so
 * that runs started together are in their looks together. Each change must be reported once
 * across all runs, and none lost: the state file's lock (cli/watch/state-lock.ts) makes the
 * looks take turns, each starting from the state the one before saved.
 */
const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
const HOUR = 3_600_000;
/** Each test starts several Node processes one round after another: seconds each on a busy machine. */
const ROUNDS_MS = 180_000;

let sandbox: Sandbox;
let sandboxUrl: string;
let relay: Awaited<ReturnType<typeof loopbackServer>>;
let dir: string;
let stateFile: string;
/** Whether each look (its team list) turns the rota first; whether looks hang (a run to kill). */
const relayMode = { turns: false, hangs: false };
let looks = 0;
let hung = 0;

beforeAll(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  sandboxUrl = await sandbox.listen();
  const target = new URL(sandboxUrl);
  relay = await loopbackServer(async (request, response) => {
    if (request.url?.includes('/o/zapier/allteams')) {
      if (relayMode.hangs) {
        hung++;
        return; // never answered: the run holds the lock until it is killed
      }
      looks++;
      if (relayMode.turns) await sandbox.clock.advance(12 * HOUR);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const upstream = http.request(
      // The sandbox's own Host, as nginx's proxy_pass sends by default: it answers only a Host that names it.
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
});
afterAll(async () => {
  await relay.close();
  await sandbox.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagerly-watch-overlap-'));
  stateFile = join(dir, 'watch-state.json');
  Object.assign(relayMode, { turns: false, hangs: false });
  looks = 0;
  hung = 0;
});

interface Ended {
  code: number | null;
  changes: OnCallChange[];
  stderr: string;
  startedAt: number;
  endedAt: number;
}

function start(): { child: ChildProcess; ended: Promise<Ended> } {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [BIN, 'on-call', 'watch', '--once', '--state', stateFile, '--team', 'payments', '--json', '--retries', '0'], {
    env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: demoKeys.acmeAdmin, PAGERLY_BASE_URL: relay.url },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<Ended>((resolve) =>
    child.on('close', (code) =>
      resolve({ code, stderr, startedAt, endedAt: Date.now(), changes: code === 0 ? (JSON.parse(stdout) as { changes: OnCallChange[] }).changes : [] }),
    ),
  );
  return { child, ended };
}

/** `count` runs started together; fails unless every one succeeded and they were all running at once. */
async function together(count: number): Promise<Ended[]> {
  const runs = await Promise.all(Array.from({ length: count }, () => start().ended));
  for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  // They overlapped: every run had started before the first one ended.
  expect(Math.max(...runs.map((r) => r.startedAt))).toBeLessThan(Math.min(...runs.map((r) => r.endedAt)));
  return runs;
}

/** The changes from one look at `before` to one at `after`: who left, who came. */
const handover = (before: readonly string[], after: readonly string[]) =>
  [
    ...before.filter((n) => !after.includes(n)).map((n) => `on_call_ended ${n}`),
    ...after.filter((n) => !before.includes(n)).map((n) => `on_call_started ${n}`),
  ].toSorted();

const said = (runs: readonly Ended[]) => runs.flatMap((run) => run.changes.map((c) => `${c.type} ${c.user.name}`));
const onCallNow = () => {
  const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as { snapshot: Record<string, { onCall: { name: string }[] }> };
  return Object.values(saved.snapshot).flatMap((team) => team.onCall.map((user) => user.name));
};

/** Who is on call in Payments at `ms` on the sandbox's clock, read past the relay; the clock stays there. */
async function onCallAt(ms: number): Promise<string[]> {
  await sandbox.clock.set(new Date(ms));
  const client = createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: sandboxUrl, retries: 0 });
  return (await client.listOnCallUsers({ teamname: 'Payments' })).map((user) => user.name);
}

/** The first run: no state yet, it only learns who is on call. */
async function baseline(): Promise<string[]> {
  const [first] = await together(1);
  expect(first!.changes).toEqual([]);
  return onCallNow();
}

describe.each([2, 4])('%i overlapping --once runs on one state file', (count) => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'a handover before them is reported once, by one run',
    async () => {
      const before = await baseline();
      await sandbox.clock.advance(12 * HOUR);
      const runs = await together(count);
      const after = onCallNow();
      expect(after).not.toEqual(before);
      expect(said(runs).toSorted()).toEqual(handover(before, after));
      expect(runs.filter((run) => run.changes.length > 0)).toHaveLength(1);
    },
    ROUNDS_MS,
  );

  it(
    'the rota turning between their looks: every change reported once, none lost',
    async () => {
      const before = await baseline();
      const startedAt = sandbox.clock.now().getTime();
      relayMode.turns = true;
      looks = 0;
      const runs = await together(count);
      relayMode.turns = false;
      expect(looks).toBe(count);
      // Taking turns, look k saw the rota k handovers on, and reported what changed since look k - 1.
      const expected: string[] = [];
      let previous = before;
      for (let k = 1; k <= count; k++) {
        const rota = await onCallAt(startedAt + k * 12 * HOUR);
        expected.push(...handover(previous, rota));
        previous = rota;
      }
      expect(said(runs).toSorted()).toEqual(expected.toSorted());
      // The last saved look is the rota now: a run after them all has nothing to report.
      const [after] = await together(1);
      expect(after!.changes).toEqual([]);
      expect(onCallNow()).toEqual(previous);
    },
    ROUNDS_MS,
  );
});

describe('a lock left by a killed run', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'is taken over once it is stale, and the next run reports what changed',
    async () => {
      const before = await baseline();
      relayMode.hangs = true;
      const stuck = start();
      const lock = `${stateFile}.lock`;
      // It holds the lock once its look has begun (the team list asked for, and never answered).
      for (let waited = 0; !existsSync(lock) || hung === 0; waited += 50) {
        if (waited > 20_000) throw new Error('the run never took the lock');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      stuck.child.kill('SIGKILL');
      await stuck.ended;
      expect(existsSync(lock)).toBe(true);
      relayMode.hangs = false;
      await sandbox.clock.advance(12 * HOUR);
      const [next] = await together(1);
      // Well under the minutes a run waits for a lock held by a live run: the stale lock was taken over.
      expect(next!.endedAt - next!.startedAt).toBeLessThan(STALE_LOCK_MS + 45_000);
      expect(said([next!]).toSorted()).toEqual(handover(before, onCallNow()));
      expect(existsSync(lock)).toBe(false);
    },
    ROUNDS_MS,
  );
});
