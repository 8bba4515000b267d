import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, exitWithin, killAll, pagerly, type SlowService, sleep, slowService, waitFor } from './support.ts';

/**
 * `pagerly on-call watch` stopped as a service manager stops it: the look under way (an
 * on-call lookup that takes 3 s) finishes and is saved before it exits 0; at the deadline it
 * is cut and not saved; a second signal ends it at once. A real process, a loopback service.
 */

const SLOW_MS = 3_000;
let service: SlowService | undefined;
const folders: string[] = [];

afterEach(async () => {
  await killAll();
  await service?.close();
  service = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function startWatch(args: readonly string[] = [], delayMs = SLOW_MS): Promise<{ child: Child; state: string }> {
  service = await slowService(delayMs);
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-watch-stop-'));
  folders.push(folder);
  const state = join(folder, 'watch.json');
  const child = pagerly(['on-call', 'watch', '--interval', '60s', '--state', state, ...args], {
    PAGERLY_API_KEY: 'sk-test-drain-4711',
    PAGERLY_BASE_URL: service.url,
  });
  await waitFor(() => service!.received.includes('GET /pagerly/o/currentusers'), 'the look to ask who is on call');
  return { child, state };
}

describe('pagerly on-call watch, stopped', () => {
  it.each([
    ['SIGTERM', 'SIGTERM'],
    ['SIGINT', 'SIGINT'],
  ] as const)(
    '%s mid-look: the look finishes and is saved, then exit 0',
    async (_label, signal) => {
      const { child, state } = await startWatch();
      await sleep(800);
      const signalled = Date.now();
      child.process.kill(signal);
      const exit = await exitWithin(child, signalled, 15_000);
      expect(exit).toMatchObject({ code: 0, signal: null });
      // It waited for the answer rather than dropping the look.
      expect(exit.ms).toBeGreaterThan(1_500);
      expect(child.stderr()).toContain(`${signal}: closing the watch; 1 in flight finishes first`);
      expect(child.stderr()).toContain(`Stopped; the last look is kept in ${state}.`);
      const saved = JSON.parse(readFileSync(state, 'utf8')) as { snapshot: Record<string, { onCall: { name: string }[] }> };
      expect(Object.values(saved.snapshot).flatMap((team) => team.onCall.map((person) => person.name))).toEqual(['Ada Lovelace']);
      // Its lock is released: the next run need not wait for it to go stale.
      expect(existsSync(`${state}.lock`)).toBe(false);
    },
    40_000,
  );

  it("Ctrl-C under npm exec (the terminal's SIGINT and npm's copy, a moment apart) is one stop: the look is saved, exit 0", async () => {
    const { child, state } = await startWatch();
    await sleep(500);
    child.process.kill('SIGINT');
    await sleep(20);
    child.process.kill('SIGINT');
    expect((await exitWithin(child, Date.now(), 15_000)).code).toBe(0);
    expect(child.stderr()).toContain(`Stopped; the last look is kept in ${state}.`);
    expect(existsSync(state)).toBe(true);
  }, 40_000);

  it('at --shutdown-timeout the look is cut, not saved, and said so; exit 0 before the service would have answered', async () => {
    // The service would answer after 10 s: only the 0.5 s deadline can end it sooner.
    const { child, state } = await startWatch(['--shutdown-timeout', '0.5'], 10_000);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(8_000);
    expect(child.stderr()).toContain(`The look under way was cut at the shutdown deadline; ${state} keeps the look before it`);
    expect(existsSync(state)).toBe(false);
    expect(existsSync(`${state}.lock`)).toBe(false);
  }, 40_000);

  it('a second signal ends it at once (143), the state file left as it was', async () => {
    const { child, state } = await startWatch();
    child.process.kill('SIGTERM');
    await waitFor(() => child.stderr().includes('SIGTERM: closing the watch'), 'the drain to start', 5_000);
    // A second request, not a copy of the first (SAME_REQUEST_MS).
    await sleep(400);
    const again = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, again, 5_000);
    expect(exit.code).toBe(143);
    expect(exit.ms).toBeLessThan(2_500);
    // Never half a file: the state is written whole and renamed, and this look never got there.
    expect(existsSync(state)).toBe(false);
  }, 40_000);
});
