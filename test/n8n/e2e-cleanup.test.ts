import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { QueueServicesError, queueServicesMissing, startQueueServices } from '../../n8n-app/e2e/services.ts';

/**
 * The n8n e2e's queue mode starts PostgreSQL and Redis (n8n-app/e2e/services.ts); whatever way
 * the run ends, neither may be left running, nor its folder left behind: a failed start of one
 * after the other started, and Ctrl-C. Each case gives the servers a folder of its own to make
 * their temporary folders in, so what is left is that folder's contents and any process whose
 * pid it was told, or whose command line names that folder.
 *
 * It needs Debian's postgresql and redis-server. A fresh CI machine installs them only after
 * `npm test` (.ci/run, beside the build): there this suite says so in its name and is skipped,
 * and .ci/run runs this file again once they are installed, with PAGERLY_E2E_SERVICES=required,
 * which turns a missing server into a failure rather than a skip.
 */
const missing = queueServicesMissing();
const required = process.env.PAGERLY_E2E_SERVICES === 'required';
const suite = missing && !required ? describe.skip : describe;
const FIXTURE = fileURLToPath(new URL('./fixtures/hold-queue-services.ts', import.meta.url));

const roots: string[] = [];
const children: ChildProcess[] = [];
/** A folder for one case's servers to make their folders in. */
function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'pagerly-leak-test-'));
  // Run as root, PostgreSQL runs as the postgres user, who must reach its folder through this one.
  chmodSync(root, 0o755);
  roots.push(root);
  return root;
}

/** Whether a process of that id is running (a zombie counts: it has not been waited for). */
const running = (pid: number) => existsSync(`/proc/${pid}`);

/** Every running process whose command line names the folder: a postgres started with its data there. */
function processesNaming(folder: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return command.includes(folder) ? [`${pid}: ${command.trim()}`] : [];
      } catch {
        return []; // ended while being read
      }
    });
}

afterAll(async () => {
  // A case that failed half way: its held servers are stopped by their own process's clean-up.
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  for (const root of roots) rmSync(root, { recursive: true, force: true });
}, 60_000);

suite(`the queue e2e's PostgreSQL and Redis leave nothing behind${missing && !required ? ` (skipped: ${missing}; .ci/run runs it once they are installed)` : ''}`, () => {
  // initdb and PostgreSQL's start take a few seconds, longer on a busy machine.
  const SLOW = 120_000;

  it.each([
    ['is missing', (folder: string) => join(folder, 'no-such-redis-server')],
    [
      'exits at once',
      (folder: string) => {
        const program = join(folder, 'redis-server');
        writeFileSync(program, '#!/bin/sh\necho "redis-server: refusing to start (the leak test\'s stand-in)" >&2\nexit 1\n');
        chmodSync(program, 0o755);
        return program;
      },
    ],
  ])(
    'when redis-server %s, the PostgreSQL that had started is stopped and its folder deleted',
    async (_, redisServer) => {
      const root = freshRoot();
      const programs = mkdtempSync(join(tmpdir(), 'pagerly-leak-redis-'));
      roots.push(programs);
      const failure = await startQueueServices({ root, redisServer: redisServer(programs) }).then(
        async (services) => {
          await services.stop();
          throw new Error('both started with a redis-server that cannot start');
        },
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(QueueServicesError);
      const { message, stopped } = failure as QueueServicesError;
      expect(message).toMatch(/redis-server/);
      // PostgreSQL had started (it was told apart by its pid), and is gone.
      const postgres = stopped.find((server) => server.what === 'postgres');
      expect(postgres).toBeDefined();
      expect(postgres!.folder.startsWith(root)).toBe(true);
      expect(message).toContain(`postgres pid ${postgres!.pid}`);
      expect(running(postgres!.pid)).toBe(false);
      expect(existsSync(postgres!.folder)).toBe(false);
      expect(processesNaming(root)).toEqual([]);
      expect(readdirSync(root)).toEqual([]);
    },
    SLOW,
  );

  it(
    'on Ctrl-C (SIGINT to the process), PostgreSQL and Redis are stopped and their folders deleted; exit 130',
    async () => {
      const root = freshRoot();
      const child = spawn(process.execPath, [FIXTURE, root], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const held = await new Promise<{ postgres: { pid: number; folder: string }; redis: { pid: number; folder: string } }>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk;
          const line = out.split('\n').find((text) => text.startsWith('{'));
          if (line) resolve(JSON.parse(line));
        });
        child.once('exit', (code) => reject(new Error(`the fixture exited ${code} before its servers were up: ${err}`)));
      });
      // Both up, each in a folder under the root.
      for (const server of [held.postgres, held.redis]) {
        expect(running(server.pid)).toBe(true);
        expect(existsSync(server.folder)).toBe(true);
        expect(server.folder.startsWith(root)).toBe(true);
      }
      expect(processesNaming(root).length).toBeGreaterThan(0);

      // To the process alone, not its group: the servers hear of it only through its clean-up.
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(err).toMatch(/SIGINT, stopping what it started/);
      for (const server of [held.postgres, held.redis]) {
        expect(running(server.pid)).toBe(false);
        expect(existsSync(server.folder)).toBe(false);
      }
      expect(processesNaming(root)).toEqual([]);
      expect(readdirSync(root)).toEqual([]);
    },
    SLOW,
  );
});
