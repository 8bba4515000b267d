import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { runMeasureInProcess } from '../../bench/part-runner.ts';

/**
 * `npm run bench` runs each part in a process of its own (bench/part-process.ts) and collects
 * its figures over IPC: zapier-platform-core's memory guard, which calls process.exit(1), ends
 * that part, named, and never the bench; Ctrl-C stops the part and what it started. Each case
 * starts a Node process or two: seconds on a busy machine.
 */
const PARTS = new URL('./fixtures/parts.ts', import.meta.url);
const SLOW = 60_000;

/** Whether a process of that id is running and not a zombie. */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe("the bench's parts, each in a process of its own", () => {
  it(
    'hands back what the part measured, NaN kept, with the peak memory of its process',
    async () => {
      const run = await runMeasureInProcess<{ value: number; ratio: number }>(PARTS, 'measuresFigures', { value: 42 });
      expect(run.figures.value).toBe(42);
      expect(run.figures.ratio).toBeNaN();
      expect(run.peakRssMb).toBeGreaterThan(10);
    },
    SLOW,
  );

  it(
    "fails with the part's own error when it throws",
    async () => {
      await expect(runMeasureInProcess(PARTS, 'throwsMidway', {})).rejects.toThrow('the stand-in part could not reach its sandbox');
    },
    SLOW,
  );

  it(
    "ends only the part when zapier-platform-core's memory guard calls process.exit(1), and says so",
    async () => {
      const failure = await runMeasureInProcess(PARTS, 'runsCoreAboveItsGuard', { calls: 300 }).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/exit 1\) without figures: .*Force killing process by Zapier for memory usage/);
      // Below the guard's 250 calls, the same part completes.
      const below = await runMeasureInProcess<{ calls: number }>(PARTS, 'runsCoreAboveItsGuard', { calls: 200 });
      expect(below.figures.calls).toBe(200);
    },
    SLOW,
  );

  it(
    'on Ctrl-C (SIGINT to the bench), stops the part and every process it started; exit 130',
    async () => {
      const bench = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/bench-holding.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      bench.stderr!.on('data', (chunk: Buffer) => {
        err += chunk;
      });
      const exited = new Promise<number | null>((resolve) => bench.once('exit', (code) => resolve(code)));
      try {
        const pids = await new Promise<{ part: number; held: number; loose: number }>((resolve, reject) => {
          let out = '';
          bench.stdout!.on('data', (chunk: Buffer) => {
            out += chunk;
            const line = out.split('\n').find((text) => text.startsWith('{'));
            if (line) resolve(JSON.parse(line));
          });
          bench.once('exit', (code) => reject(new Error(`the bench exited ${code} before its part was up: ${err}`)));
        });
        for (const pid of Object.values(pids)) expect(alive(pid)).toBe(true);
        // To the bench alone, not its group: the part hears of it only from the bench.
        bench.kill('SIGINT');
        expect(await exited).toBe(130);
        expect(err).toMatch(/SIGINT, stopping what it started/);
        // Reaped by their parents or by init: give init a moment for the loose one.
        const end = Date.now() + 5_000;
        while (Object.values(pids).some(alive) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(Object.fromEntries(Object.entries(pids).map(([what, pid]) => [what, alive(pid)]))).toEqual({ part: false, held: false, loose: false });
      } finally {
        if (bench.exitCode === null && bench.signalCode === null) bench.kill('SIGKILL');
      }
    },
    SLOW,
  );
});
