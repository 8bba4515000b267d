import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSandbox, type Running } from '../sandbox/support.ts';
import { startKeyProxy, type KeyProxy } from '../support/key-proxy.ts';
import { LeakWatch, removeDir } from '../support/leak-watch.ts';
import { demoKeys, demoSeed, type Seed } from '../../sandbox/index.ts';
import { scenarios } from '../recordings/scenarios.ts';
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
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  );

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

/**
 * Runs record.ts with the secret keys (or those of `keys`; `undefined` leaves a variable out),
 * against the proxy (and so the sandbox), writing into `root/out`.
 */
function record(
  root: string,
  keys: { PAGERLY_API_KEY?: string | undefined; PAGERLY_USER_API_KEY?: string | undefined; PAGERLY_RECORD_WRITES?: string | undefined } = {},
  target: KeyProxy = proxy,
  args: readonly string[] = ['--yes'],
): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAGERLY_')));
  const chosen = { PAGERLY_API_KEY: SECRET_KEY, PAGERLY_USER_API_KEY: SECRET_USER_KEY, PAGERLY_RECORD_WRITES: '1', ...keys };
  const env = {
    ...inherited,
    ...Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined)),
    PAGERLY_BASE_URL: target.url,
    PAGERLY_RECORD_TEAM: 'Platform',
    PAGERLY_RECORD_EMPTY_TEAM: 'Mobile',
    PAGERLY_RECORD_EMAIL: 'katherine@acme.example',
    PAGERLY_RECORD_DIR: join(root, 'out'),
    TMPDIR: join(root, 'tmp'),
  };
  return new Promise((resolve) => {
    // Asynchronous on purpose: the sandbox answering it lives in this very process.
    execFile(node, [join(committedDir, 'record.ts'), ...args], { cwd: repo, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const written = existsSync(join(root, 'out')) ? readdirSync(join(root, 'out')).sort() : [];
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

    // Each scenario's requests went with its own identity's key, in order: the non-admin's
    // key check first, then every step of every scenario run live; never the admin's key for another.
    const sent = proxy.since(mark).map((request) => request.apiKey);
    const keyOf = { admin: SECRET_KEY, user: SECRET_USER_KEY, invalid: 'not-a-valid-key-0000' } as Record<string, string>;
    const fixture = { team: 'Platform', emptyTeam: 'Mobile', existingEmail: 'katherine@acme.example', newEmail: 'x', hookUrl: 'x' };
    const expected = [
      SECRET_USER_KEY,
      ...scenarios.filter((scenario) => !scenario.sandboxOnly).flatMap((scenario) => scenario.steps(fixture).map(() => keyOf[scenario.as])),
    ];
    expect(sent).toEqual(expected);
    expect(sent.filter((key) => key === SECRET_KEY).length).toBeGreaterThan(5);
    expect(sent.filter((key) => key === SECRET_USER_KEY).length).toBeGreaterThan(5);

    for (const name of run.written) {
      const interactions = JSON.parse(readFileSync(join(copy, 'out', name), 'utf8')).interactions as unknown[];
      expect({ name, recorded: interactions.length > 0 }).toEqual({ name, recorded: true });
    }
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
      // list-teams (the third scenario) meets a 500 that quotes the key.
      running.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 500, body: JSON.stringify([{ Error: `Internal error for ${SECRET_KEY}` }]) });
      const run = await record(root);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/Scenario list-teams, listTeams: expected ok, got ServerError/);
      expect(run.written).not.toContain('list-teams.json');
      expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
    } finally {
      running.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);

  it('the non-admin key check failing with both keys in its answer: one line, neither key, nothing written', async () => {
    const root = freshCopy();
    try {
      running.sandbox.faults.inject({
        path: '/o/test/apikey',
        status: 500,
        body: JSON.stringify([{ Error: `Internal error for ${SECRET_KEY} and ${SECRET_USER_KEY}` }]),
      });
      const run = await record(root);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^npm run record: Could not check PAGERLY_USER_API_KEY: The service failed to check the API key \(HTTP 500: Internal error for \[redacted\] and \[redacted\]\)/,
      );
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.written).toEqual([]);
      expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
    } finally {
      running.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);

  it('an answer that holds the key is recorded with the key redacted (shared redact), never as it came', async () => {
    const root = freshCopy();
    try {
      // list-teams (the third scenario) gets a success that carries the key in a team name.
      running.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 200, body: JSON.stringify([{ id: 'team_x', name: `Team ${SECRET_KEY}` }]) });
      const run = await record(root);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(readFileSync(join(root, 'out', 'list-teams.json'), 'utf8')).toContain('"name": "Team [redacted]"');
      expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
    } finally {
      running.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);

  it.each([
    [
      'no PAGERLY_USER_API_KEY',
      { PAGERLY_USER_API_KEY: undefined },
      "npm run record: Recording against the real service needs PAGERLY_USER_API_KEY: set it to a non-admin's API key",
    ],
    [
      "PAGERLY_USER_API_KEY equal to the admin's",
      { PAGERLY_USER_API_KEY: SECRET_KEY },
      "npm run record: PAGERLY_USER_API_KEY is the same key as PAGERLY_API_KEY: set it to a non-admin's API key",
    ],
  ])(
    '%s: refuses before any request, in one line saying what to set, writing nothing',
    async (_name, keys, line) => {
      const root = freshCopy();
      try {
        const mark = proxy.requests.length;
        const run = await record(root, keys);
        expect(run.code).toBe(2);
        expect(run.stderr.startsWith(line)).toBe(true);
        expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(proxy.since(mark)).toEqual([]);
        expect(run.written).toEqual([]);
        expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
      } finally {
        removeDir(root);
      }
    },
    60_000,
  );

  it.each([
    ['with PAGERLY_RECORD_WRITES=1', '1'],
    ['without writes', undefined],
  ])(
    'live without --yes (%s): says which keys it uses and every change it would make, then stops before any request',
    async (_name, writes) => {
      const root = freshCopy();
      try {
        const mark = proxy.requests.length;
        const run = await record(root, { PAGERLY_RECORD_WRITES: writes }, proxy, []);
        expect(run.code).toBe(2);
        const lines = run.stderr.trimEnd().split('\n');
        expect(lines[0]).toMatch(
          new RegExp(`^npm run record against the real service at ${proxy.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} records \\d+ scenarios into `),
        );
        expect(run.stderr).toContain("Keys: PAGERLY_API_KEY, an org admin's");
        expect(run.stderr).toContain("PAGERLY_USER_API_KEY, a non-admin's");
        expect(lines.at(-1)).toBe('npm run record: nothing was sent. Re-run with `npm run record -- --yes` to go ahead.');
        // Every write scenario's changes are listed (or said to be left out), from the scenarios themselves.
        for (const scenario of scenarios.filter((s) => s.writes && !s.sandboxOnly)) expect(run.stderr).toContain(scenario.name);
        if (writes) {
          expect(run.stderr).toContain(
            'POST /o/incident  create an incident, or update one by its id: {"title":"Checkout latency above 2 s","severity":"P2","teamname":"Platform"}',
          );
          expect(run.stderr).toContain('DELETE /o/oncalluser  remove a directory entry: {"email":"pagerly-connectors-recording@example.com"}');
          expect(run.stderr).toContain('POST /o/zapier/subscribe  register a Zapier hook');
        } else {
          expect(run.stderr).toContain('Changes: none (set PAGERLY_RECORD_WRITES=1');
        }
        expect(proxy.since(mark)).toEqual([]);
        expect(run.written).toEqual([]);
        expect(watchRun(root, run).leaks(SECRETS)).toEqual([]);
      } finally {
        removeDir(root);
      }
    },
    60_000,
  );

  it("a PAGERLY_USER_API_KEY that is an admin's: refused after its own key check, nothing sent with the admin's key", async () => {
    const root = freshCopy();
    try {
      const mark = proxy.requests.length;
      // Grace's demo key: a real key, but an org admin's.
      const run = await record(root, { PAGERLY_USER_API_KEY: demoKeys.acmeAdmin });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        "npm run record: PAGERLY_USER_API_KEY must be a non-admin's key (role user), but the service says its role is admin: set it to the key of a person who is not an org admin.\n",
      );
      expect(proxy.since(mark).map((r) => [r.url, r.apiKey])).toEqual([['/o/test/apikey', demoKeys.acmeAdmin]]);
      expect(run.written).toEqual([]);
    } finally {
      removeDir(root);
    }
  }, 60_000);

  it('a plain `npm run record` (in-process sandbox, no key set) writes the committed recordings byte for byte', async () => {
    const root = freshCopy();
    try {
      const run = await record(root, { PAGERLY_API_KEY: undefined, PAGERLY_USER_API_KEY: undefined });
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Recorded \d+ scenarios from the sandbox into /);
      const committed = readdirSync(committedDir)
        .filter((name) => name.endsWith('.json'))
        .sort();
      expect(run.written).toEqual(committed);
      for (const name of committed) {
        expect({ name, same: readFileSync(join(root, 'out', name)).equals(readFileSync(join(committedDir, name))) }).toEqual({ name, same: true });
      }
    } finally {
      removeDir(root);
    }
  }, 60_000);

  it('left the committed recordings untouched', () => {
    expect(digestOf(committedDir)).toEqual(committedBefore);
  });
});

/** Keys with a `"` and a `\\`: inside a JSON recording they would appear escaped (`\\"`, `\\\\`). */
const QUOTE_KEY = 'QUOTE"KEY\\7d1e-admin-do-not-leak';
const QUOTE_USER_KEY = 'QUOTE"USER\\a93c-user-do-not-leak';
const QUOTE_KEYS = [QUOTE_KEY, QUOTE_USER_KEY];

/** Every form the key could take in a file: as is, JSON-escaped, URL-encoded, and the pieces LeakWatch looks for. */
const formsOf = (key: string) => [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)];

describe('keys with " and \\ (in-process sandbox, real-service mode): no form of them in any recording', () => {
  let quoted: Running;
  let quotedProxy: KeyProxy;
  beforeAll(async () => {
    const seed: Seed = {
      ...demoSeed,
      organizations: demoSeed.organizations.map((org) =>
        org.id === 'org_acme'
          ? { ...org, apiKeys: [...org.apiKeys, { key: QUOTE_KEY, personId: 'usr_grace' }, { key: QUOTE_USER_KEY, personId: 'usr_alan' }] }
          : org,
      ),
    };
    quoted = await startSandbox({ seed, rateLimit: false });
    quotedProxy = await startKeyProxy(quoted.url);
  });
  afterAll(async () => {
    await quotedProxy.close();
    await quoted.sandbox.close();
  });

  it('answers that echo either key (JSON bodies) are written redacted; the keys did go out', async () => {
    const root = freshCopy();
    try {
      quoted.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 200, body: JSON.stringify([{ id: 'team_x', name: `Team ${QUOTE_KEY}` }]) });
      // Without writes, the non-admin's refused upsert (directory-admin-refusals) is the first
      // POST /o/oncalluser: its 403 quotes the non-admin's key.
      quoted.sandbox.faults.inject({
        method: 'POST',
        path: '/o/oncalluser',
        status: 403,
        body: JSON.stringify([{ Error: `Only an org admin can do this; key ${QUOTE_USER_KEY} is a user's` }]),
      });
      const mark = quotedProxy.requests.length;
      const run = await record(root, { PAGERLY_API_KEY: QUOTE_KEY, PAGERLY_USER_API_KEY: QUOTE_USER_KEY, PAGERLY_RECORD_WRITES: undefined }, quotedProxy);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const sent = new Set(quotedProxy.since(mark).map((r) => r.apiKey));
      expect(sent.has(QUOTE_KEY) && sent.has(QUOTE_USER_KEY)).toBe(true);
      expect(run.written).toEqual(expect.arrayContaining(['list-teams.json', 'directory-admin-refusals.json']));
      expect(readFileSync(join(root, 'out', 'list-teams.json'), 'utf8')).toContain('"name": "Team [redacted]"');
      expect(readFileSync(join(root, 'out', 'directory-admin-refusals.json'), 'utf8')).toContain('key [redacted] is a user');

      const watch = watchRun(root, run);
      expect(watch.leaks(QUOTE_KEYS.flatMap(formsOf))).toEqual([]);
      for (const name of run.written) expect(() => JSON.parse(readFileSync(join(root, 'out', name), 'utf8'))).not.toThrow();
    } finally {
      quoted.sandbox.faults.clear();
      removeDir(root);
    }
  }, 60_000);
});
