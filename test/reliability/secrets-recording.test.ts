import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSandbox, type Running } from '../sandbox/support.ts';
import { startKeyProxy, type KeyProxy } from '../support/key-proxy.ts';
import { LeakWatch, removeDir } from '../support/leak-watch.ts';
import { SECRET_KEY, SECRET_USER_KEY, SECRETS, secretSeed } from './secret-world.ts';

/**
 * The recording command (`npm run record`, test/recordings/record.ts) with the secret keys, in
 * its "real service" mode (PAGERLY_API_KEY set) against the sandbox behind the key proxy.
 *
 * It runs as a child process, the committed file itself, writing into a temporary folder
 * (PAGERLY_RECORD_DIR) so the committed recordings are never overwritten; a check below proves
 * they are untouched. Searched for the keys: what it printed (stdout, stderr), every file it
 * wrote, and its TMPDIR.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const node = join(repo, 'node_modules/.bin/node');
const committedDir = join(repo, 'test/recordings');

let running: Running;
let proxy: KeyProxy;
let copy: string;
let committedBefore: Record<string, string>;

const digestOf = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).sort().map((name) => [name, createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')]));

/** A fresh folder for what the command writes (`out/`) and its TMPDIR (`tmp/`). */
function freshCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'pagerly-record-'));
  mkdirSync(join(root, 'tmp'));
  return root;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  written: string[];
}

/** Runs record.ts with the secret keys, against the proxy (and so the sandbox), writing into `root/out`. */
function record(root: string): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAGERLY_')));
  const env = {
    ...inherited,
    PAGERLY_API_KEY: SECRET_KEY,
    PAGERLY_USER_API_KEY: SECRET_USER_KEY,
    PAGERLY_BASE_URL: proxy.url,
    PAGERLY_RECORD_TEAM: 'Platform',
    PAGERLY_RECORD_EMPTY_TEAM: 'Mobile',
    PAGERLY_RECORD_EMAIL: 'katherine@acme.example',
    PAGERLY_RECORD_WRITES: '1',
    PAGERLY_RECORD_DIR: join(root, 'out'),
    TMPDIR: join(root, 'tmp'),
  };
  return new Promise((resolve) => {
    // Asynchronous on purpose: the sandbox answering it lives in this very process.
    execFile(node, [join(committedDir, 'record.ts')], { cwd: repo, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const written = readdirSync(join(root, 'out')).sort();
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr, written });
    });
  });
}

function watchRun(root: string, run: Run): LeakWatch {
  const watch = new LeakWatch();
  watch.text('record.ts stdout', run.stdout);
  watch.text('record.ts stderr', run.stderr);
  for (const name of run.written) watch.text(`written ${name}`, readFileSync(join(root, 'out', name), 'utf8'));
  watch.files('its TMPDIR', join(root, 'tmp'));
  return watch;
}

beforeAll(async () => {
  committedBefore = digestOf(committedDir);
  running = await startSandbox({ seed: secretSeed(), rateLimit: false });
  proxy = await startKeyProxy(running.url);
});
afterAll(async () => {
  await proxy.close();
  await running.sandbox.close();
  if (copy) removeDir(copy);
});

describe('the recording command never writes or prints the key', () => {
  it('records every scenario the real-service mode runs, sending both keys, holding neither', async () => {
    copy = freshCopy();
    const mark = proxy.requests.length;
    const run = await record(copy);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Recorded 1[0-9] scenarios from the real service into \S+: check-api-key, /);
    expect(run.written).toContain('directory-lifecycle.json');
    expect(run.written.length).toBeGreaterThanOrEqual(10);

    const sent = proxy.since(mark).map((request) => request.apiKey);
    expect(sent.filter((key) => key === SECRET_KEY).length).toBeGreaterThan(5);
    expect(sent.filter((key) => key === SECRET_USER_KEY).length).toBeGreaterThan(5);

    const watch = watchRun(copy, run);
    expect(watch.leaks(SECRETS)).toEqual([]);
    for (const name of run.written) {
      const text = readFileSync(join(copy, 'out', name), 'utf8');
      expect({ name, keyHeader: /x-apikey/i.test(text) }).toEqual({ name, keyHeader: false });
    }
  }, 60_000);

  it('fails on an unexpected answer without printing the key', async () => {
    const root = freshCopy();
    try {
      // The first scenario (check-api-key) meets a 500 that quotes the key.
      running.sandbox.faults.inject({ path: '/o/test/apikey', status: 500, body: JSON.stringify([{ Error: `Internal error for ${SECRET_KEY}` }]) });
      const run = await record(root);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/Scenario check-api-key, checkApiKey: expected ok, got ServerError/);
      expect(run.written).toEqual([]);
      expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
    } finally {
      running.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);

  it('refuses to write a recording whose answer holds the key, and says so without it', async () => {
    const root = freshCopy();
    try {
      // list-teams (the third scenario) gets a success that carries the key in a team name.
      running.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 200, body: JSON.stringify([{ id: 'team_x', name: `Team ${SECRET_KEY}` }]) });
      const run = await record(root);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('Refusing to write list-teams: the recording contains an API key.');
      expect(run.written).toEqual(['check-api-key-invalid.json', 'check-api-key.json']);
      expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
    } finally {
      running.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);

  it('left the committed recordings untouched', () => {
    expect(digestOf(committedDir)).toEqual(committedBefore);
  });
});
