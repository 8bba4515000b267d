import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { slowProxy, type SlowProxy } from './slow-proxy.ts';
import { Capture, KEY_MARK, KEYS, person, startCliSandbox, type CliSandbox } from './support.ts';

// Ctrl-C in the middle of `directory sync`, over real HTTP: the sandbox on
// loopback behind a proxy that slows every request, so that changes are in flight when the
// signal comes. In process through `main`'s abort signal, and once as a real process (SIGINT).

const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
const ROWS = 40;
const emails = Array.from({ length: ROWS }, (_, i) => `ctrl.c.${String(i + 1).padStart(2, '0')}@acme.example`);

let s: CliSandbox;
let proxy: SlowProxy;
let dir: string;
let file: string;

beforeEach(async () => {
  s = await startCliSandbox();
  proxy = await slowProxy(s.url, 40);
  dir = mkdtempSync(join(tmpdir(), 'pagerly-ctrl-c-'));
  file = join(dir, 'people.csv');
  writeFileSync(file, `email,name\n${emails.map((email, i) => `${email},Person ${i + 1}`).join('\n')}\n`);
});
afterEach(async () => {
  await proxy.close();
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const created = () => emails.filter((email) => person(s.sandbox, email));

async function until(condition: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** `pagerly directory sync FILE` in process against the slowed sandbox; Ctrl-C once `abortWhen` holds. */
async function syncInterrupted(extra: string[], abortWhen: () => boolean) {
  const stdout = new Capture();
  const stderr = new Capture();
  const interrupt = new AbortController();
  const running = main(
    ['--base-url', proxy.url, 'directory', 'sync', file, '--concurrency', '3', ...extra],
    { PAGERLY_API_KEY: KEYS.admin },
    { stdout, stderr, signal: interrupt.signal },
  );
  await until(abortWhen, 'the moment to press Ctrl-C');
  interrupt.abort();
  const code = await running;
  // Every request that left was answered before the command ended: it waited for them.
  const inFlightAtEnd = proxy.started - proxy.answered;
  expect(stdout.text + stderr.text).not.toContain(KEY_MARK);
  return { code, stdout: stdout.text, stderr: stderr.text, inFlightAtEnd };
}

describe('Ctrl-C during directory sync', () => {
  it('stops sending, waits for the changes in flight, reports applied and not sent, exit 130; the same file again converges', async () => {
    const r = await syncInterrupted([], () => created().length >= 4);
    expect(r.code).toBe(130);
    expect(r.inFlightAtEnd).toBe(0);
    const applied = created();
    expect(applied.length).toBeGreaterThanOrEqual(4);
    expect(applied.length).toBeLessThan(ROWS);
    const notSent = ROWS - applied.length;

    // What the report says was applied is exactly what the service holds.
    const reported = [...r.stdout.matchAll(/^ {2}created {2}row \d+ +(\S+)/gm)].map((m) => m[1]);
    expect(reported.sort()).toEqual(applied.sort());
    expect(r.stdout).toContain(
      `Interrupted (Ctrl-C) while syncing ${file}: ${applied.length} created, 0 updated, 0 removed, 0 unchanged, 0 already absent, 0 failed, ${notSent} not sent.`,
    );
    expect(r.stdout).toContain(`Not sent (${notSent}):`);
    const listedNotSent = [...r.stdout.matchAll(/^ {2}row \d+ +(\S+) +create$/gm)].map((m) => m[1]);
    expect(listedNotSent.sort()).toEqual(emails.filter((e) => !applied.includes(e)).sort());
    expect(r.stdout).toContain('Running the same file again is safe and finishes the job: rows already applied come out unchanged.');
    expect(r.stderr).toContain('Stopping (Ctrl-C): waiting for the requests in flight');
    expect(r.stderr).toContain(`error: interrupted (Ctrl-C): ${applied.length} changes applied, ${notSent} rows not sent.`);

    // Running the same file again finishes the job.
    const again = await s.cli(['directory', 'sync', file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${notSent} created, 0 updated, 0 removed, ${applied.length} unchanged, 0 already absent, 0 failed.`);
    expect(created()).toHaveLength(ROWS);
  }, 30_000);

  it("--json: one JSON document on stdout with interrupted, every row's outcome; one JSON error on stderr; exit 130", async () => {
    const r = await syncInterrupted(['--json'], () => created().length >= 3);
    expect(r.code).toBe(130);
    expect(r.inFlightAtEnd).toBe(0);
    const doc = JSON.parse(r.stdout);
    const applied = created();
    expect(doc).toMatchObject({ file, dryRun: false, interrupted: true });
    expect(doc.summary).toEqual({
      created: applied.length,
      updated: 0,
      removed: 0,
      unchanged: 0,
      alreadyAbsent: 0,
      failed: 0,
      skipped: 0,
      notSent: ROWS - applied.length,
    });
    expect(
      doc.rows
        .filter((row: any) => row.outcome === 'created')
        .map((row: any) => row.email)
        .sort(),
    ).toEqual(applied.sort());
    expect(
      doc.rows
        .filter((row: any) => row.outcome === 'not-sent')
        .map((row: any) => row.email)
        .sort(),
    ).toEqual(emails.filter((e) => !applied.includes(e)).sort());
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'interrupted', message: expect.stringContaining('Running the same file again is safe'), retryable: false, exitCode: 130 },
    });
  }, 30_000);

  it('during the lookups: nothing is changed, every row not sent, exit 130', async () => {
    const r = await syncInterrupted([], () => proxy.started >= 2);
    expect(r.code).toBe(130);
    expect(r.inFlightAtEnd).toBe(0);
    expect(created()).toEqual([]);
    expect(r.stdout).toContain(`0 created, 0 updated, 0 removed, 0 unchanged, 0 already absent, 0 failed, ${ROWS} not sent.`);
    expect(r.stdout).toMatch(/^ {2}row 2 +ctrl\.c\.01@acme\.example +(create|not looked up)$/m);
  }, 30_000);

  it('another command is abandoned at once on Ctrl-C: exit 130, with a warning that a request may have arrived', async () => {
    const hanging = await loopbackServer(() => undefined);
    try {
      const stderr = new Capture();
      const interrupt = new AbortController();
      const running = main(
        ['--base-url', hanging.url, 'incident', 'create', '--title', 'x'],
        { PAGERLY_API_KEY: KEYS.admin },
        { stdout: new Capture(), stderr, signal: interrupt.signal },
      );
      setTimeout(() => interrupt.abort(), 100);
      const started = Date.now();
      expect(await running).toBe(130);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(stderr.text).toBe(
        'error: interrupted (Ctrl-C) before the command finished: a request may have reached the service; check before running it again.\n',
      );
    } finally {
      await hanging.close();
    }
  });

  it('as a real process: SIGINT to bin/pagerly.js mid-sync prints the report and exits 130', async () => {
    const child = spawn(process.execPath, [BIN, 'directory', 'sync', file, '--concurrency', '3'], {
      env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: proxy.url },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    await until(() => created().length >= 3, 'three rows applied by the child');
    child.kill('SIGINT');
    const { code, signal } = await exited;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the last bytes of its pipes
    expect({ code, signal }).toEqual({ code: 130, signal: null });
    const applied = created();
    expect(applied.length).toBeLessThan(ROWS);
    expect(stdout).toContain(`Interrupted (Ctrl-C) while syncing ${file}: ${applied.length} created,`);
    expect(stdout).toContain(`${ROWS - applied.length} not sent.`);
    expect(stdout).toContain('Running the same file again is safe and finishes the job');
    expect(stderr).toContain(`error: interrupted (Ctrl-C): ${applied.length} changes applied, ${ROWS - applied.length} rows not sent.`);
    expect(stdout + stderr).not.toContain(KEY_MARK);
  }, 30_000);
});
