import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Capture } from '../cli/support.ts';
import { useSecretWorld } from './secret-harness.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { main } from '../../cli/main.ts';
import type { Env } from '../../cli/settings.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { LeakWatch, removeDir } from '../support/leak-watch.ts';
import { faultCases, keysSent, SECRET_KEY, SECRET_USER_KEY, SECRETS, expectedAt } from './secret-world.ts';

/**
 * The command line (cli/main.ts, in process) with a key the sandbox accepts: every command,
 * human and --json, key from the environment and from --api-key, then every failure path.
 * Searched for the key: everything the CLI wrote to its stdout and stderr, anything that went
 * to the real process.stdout / stderr or console, and the temp folder (and the folder of the
 * sync file). The key proxy in front of the sandbox shows the key did go out, in X-APIKEY.
 */
let files: string;
const watch = new LeakWatch();

const world = useSecretWorld({
  start: () => {
    files = mkdtempSync(join(tmpdir(), 'pagerly-cli-files-'));
  },
  stop: async () => {
    removeDir(files);
  },
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  sent: (string | undefined)[];
}

/** `pagerly --base-url <proxy> ...argv`, with the key in PAGERLY_API_KEY unless `env` says otherwise. */
async function cli(place: string, argv: readonly string[], env: Env = { PAGERLY_API_KEY: SECRET_KEY }): Promise<Ran> {
  const stdout = new Capture();
  const stderr = new Capture();
  const mark = world.proxy.requests.length;
  let code: number;
  try {
    code = await main(['--base-url', world.proxy.url, ...argv], env, { stdout, stderr });
  } catch (error) {
    watch.value(`${place} → threw out of main`, error);
    throw error;
  }
  watch.text(`${place} → stdout`, stdout.text);
  watch.text(`${place} → stderr`, stderr.text);
  return { code, stdout: stdout.text, stderr: stderr.text, sent: keysSent(world.proxy.since(mark)) };
}

const EMAIL = 'cli.secret@acme.example';

describe('the command line never shows the key', () => {
  let syncFile: string;
  beforeAll(() => {
    syncFile = join(files, 'people.csv');
    writeFileSync(syncFile, `email,name,phone,role,remove\n${EMAIL},Cli Sync,+14155550141,user,\nkatherine@acme.example,Katherine Johnson,+14155550103,,\n`);
  });

  /** Every leaf command, with arguments that succeed against the demo world (after the ones before). */
  const commands = (incidentId: string): [string, string[], number][] => [
    ['check', ['check'], 1],
    ['teams', ['teams'], 1],
    ['on-call', ['on-call'], 4],
    ['on-call --team', ['on-call', '--team', 'Payments'], 1],
    ['on-call watch --once', ['on-call', 'watch', '--once', '--state', join(files, 'watch.json')], 4],
    ['incident create', ['incident', 'create', '--title', 'Deploy failed', '--severity', 'P2', '--team', 'Platform'], 1],
    ['incident update', ['incident', 'update', incidentId, '--title', 'Deploy failed', '--status', 'resolved'], 1],
    ['directory set', ['directory', 'set', EMAIL, '--name', 'Cli Secret', '--phone', '+1 415 555 0144'], 1],
    ['directory phone', ['directory', 'phone', EMAIL, '+14155550145'], 1],
    ['directory role', ['directory', 'role', EMAIL, 'admin'], 1],
    ['directory get', ['directory', 'get', EMAIL], 1],
    ['directory remove', ['directory', 'remove', EMAIL], 1],
    ['directory sync --dry-run', ['directory', 'sync', syncFile, '--dry-run'], 2],
    ['directory sync', ['directory', 'sync', syncFile], 3],
  ];

  it('covers every command the help lists', async () => {
    const commandsOf = async (argv: string[]) => {
      const help = await cli(`help ${argv.join(' ')}`, [...argv, '--help']);
      const section = (help.stdout.split('\nCommands:\n')[1] ?? '').split('\n\n')[0] ?? '';
      return section
        .split('\n')
        .map((line) => /^ {2}([a-z-]+)/.exec(line)?.[1])
        .filter((name): name is string => Boolean(name) && name !== 'help');
    };
    const top = await commandsOf([]);
    const leaves = (
      await Promise.all(
        top.map(async (name) => {
          const subs = await commandsOf([name]);
          return subs.length ? subs.map((sub) => `${name} ${sub}`) : [name];
        }),
      )
    ).flat();
    const covered = new Set(
      commands('inc_x').map(([, argv]) =>
        argv
          .filter((arg) => /^[a-z-]+$/.test(arg))
          .slice(0, 2)
          .join(' '),
      ),
    );
    // `mcp` serves JSON-RPC on the process's own stdin and stdout, so it cannot run in process
    // here: test/mcp/stdio.test.ts runs the real process and holds its every output to the same rule.
    // `directory import` reads another service with that service's key and never reads the Pagerly key:
    // test/cli/import.test.ts holds its every output, trace and file to the same rule, each key marked.
    const elsewhere = new Set(['mcp', 'directory import']);
    const missing = leaves.filter((leaf) => !elsewhere.has(leaf) && ![...covered].some((c) => c === leaf || c.startsWith(`${leaf} `)));
    expect(leaves.length).toBeGreaterThanOrEqual(11);
    expect(missing).toEqual([]);
  });

  it.each(['human', 'json'] as const)('every command succeeds (%s output), sending the key in X-APIKEY only', async (mode) => {
    const extra = mode === 'json' ? ['--json'] : [];
    const created = await cli('incident create (for its id)', ['incident', 'create', '--title', 'Seed', ...extra]);
    expect(created.code).toBe(0);
    const id = mode === 'json' ? JSON.parse(created.stdout).id : created.stdout.trim();
    expect(id).toMatch(/^inc_/);
    for (const [name, argv, requests] of commands(id)) {
      const ran = await cli(`${name} (${mode})`, [...argv, ...extra]);
      expect({ name, code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ name, code: 0, stderr: '' });
      expect({ name, requests: ran.sent.length >= requests, keys: [...new Set(ran.sent)] }).toEqual({ name, requests: true, keys: [SECRET_KEY] });
      if (mode === 'json') expect(() => JSON.parse(ran.stdout)).not.toThrow();
    }
    // The key given as a flag (and with stray whitespace in the environment) works the same.
    for (const [place, argv, env] of [
      ['--api-key KEY', ['--api-key', SECRET_KEY, 'check', ...extra], {}],
      ['--api-key=KEY', [`--api-key=${SECRET_KEY}`, 'teams', ...extra], {}],
      ['padded env key', ['check', ...extra], { PAGERLY_API_KEY: `  ${SECRET_KEY}\n` }],
    ] as const) {
      const ran = await cli(`${place} (${mode})`, argv, env);
      expect({ place, code: ran.code, keys: [...new Set(ran.sent)] }).toEqual({ place, code: 0, keys: [SECRET_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  /** A command per endpoint: where the fault goes, and what it runs. */
  const byEndpoint: [EndpointKey, string[]][] = [
    ['checkApiKey', ['check']],
    ['listTeams', ['teams']],
    ['listOnCallUsers', ['on-call', '--team', 'Payments']],
    ['createOrUpdateIncident', ['incident', 'create', '--title', 'Disk full']],
    ['getDirectoryEntry', ['directory', 'get', 'katherine@acme.example']],
    ['upsertDirectoryEntry', ['directory', 'set', 'x@acme.example', '--name', 'X']],
    ['updateDirectoryPhone', ['directory', 'phone', 'katherine@acme.example', '+14155550103']],
    ['changeDirectoryRole', ['directory', 'role', 'katherine@acme.example', 'user']],
    ['removeDirectoryEntry', ['directory', 'remove', 'nobody@acme.example']],
  ];
  const exitFor: Record<string, number> = {
    'no error': 0,
    AuthenticationError: 3,
    PermissionError: 4,
    NotFoundError: 1,
    RateLimitError: 75,
    ServerError: 75,
    InvalidResponseError: 1,
  };

  describe.each(faultCases.map((fault) => [fault.name, fault] as const))('every command that calls the service, when it answers: %s', (_name, fault) => {
    it(`exits ${exitFor[fault.expected.client]}, having sent the key, and prints nothing that holds it`, async () => {
      for (const mode of [[], ['--json']]) {
        for (const [key, argv] of [...byEndpoint, ['getDirectoryEntry', ['directory', 'sync', syncFile, '--dry-run']] as [EndpointKey, string[]]]) {
          world.running.sandbox.faults.clear();
          world.running.sandbox.faults.inject({ method: endpoints[key].method, path: endpoints[key].path, ...fault.answer(SECRET_KEY), times: 1 });
          const name = argv.slice(0, 2).join(' ');
          const ran = await cli(`${name} ${mode.join('')} (${fault.name})`, ['--retries', '0', ...argv, ...mode]);
          expect({ name, keys: [...new Set(ran.sent)] }).toEqual({ name, keys: [SECRET_KEY] });
          // A create that met a 5xx other than 503 may have been done: exit 5 (faults-outcome.test.ts).
          const { status } = fault.answer(SECRET_KEY);
          const code = !endpoints[key].idempotent && status >= 500 && status !== 503 ? 5 : exitFor[expectedAt(fault, key).client];
          if (argv[1] !== 'sync') expect({ name, code: ran.code }).toEqual({ name, code });
          if (mode.length && ran.code !== 0) expect(() => JSON.parse(ran.stderr)).not.toThrow();
        }
      }
      world.running.sandbox.faults.clear();
      expect(watch.leaks(SECRETS)).toEqual([]);
    });
  });

  it('a network failure: exit 75 (5 for a create that had left), without the key', async () => {
    for (const [key, argv] of byEndpoint) {
      world.proxy.breakNext(1);
      const ran = await cli(`${argv.slice(0, 2).join(' ')} (connection destroyed)`, ['--retries', '0', ...argv]);
      expect({ argv, code: ran.code, keys: ran.sent }).toEqual({ argv, code: endpoints[key].idempotent ? 75 : 5, keys: [SECRET_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('bad usage and bad input, the key typed in the wrong place included: exit 2, nothing sent, the key not repeated', async () => {
    const badFile = join(files, 'bad.csv');
    writeFileSync(badFile, `email,name,phone\n${SECRET_KEY},Typed Key,${SECRET_KEY}\n`);
    const cases: [string, string[], Env][] = [
      ['the key as a command', [SECRET_KEY], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as a command, given by flag', [`--api-key=${SECRET_KEY}`, SECRET_KEY], {}],
      ['the key as an extra argument', ['--api-key', SECRET_KEY, 'teams', SECRET_KEY], {}],
      ['the key as an unknown option', [`--${SECRET_KEY}`, 'teams'], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as a timeout', ['--timeout', SECRET_KEY, 'teams'], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as a retry count', ['--retries', SECRET_KEY, 'teams'], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as a role', ['directory', 'role', 'katherine@acme.example', SECRET_KEY], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as an e-mail', ['directory', 'get', SECRET_KEY], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key as a phone', ['directory', 'phone', 'katherine@acme.example', SECRET_KEY], { PAGERLY_API_KEY: SECRET_KEY }],
      ['the key in a sync file', ['directory', 'sync', badFile], { PAGERLY_API_KEY: SECRET_KEY }],
      ['a sync file that is not there', ['directory', 'sync', join(files, 'missing.csv')], { PAGERLY_API_KEY: SECRET_KEY }],
      ['no title', ['incident', 'create'], { PAGERLY_API_KEY: SECRET_KEY }],
      ['an unknown status', ['incident', 'update', 'inc_1', '--title', 't', '--status', 'closed'], { PAGERLY_API_KEY: SECRET_KEY }],
    ];
    for (const [place, argv, env] of cases) {
      for (const mode of [[], ['--json']]) {
        const ran = await cli(`${place} ${mode.join('')}`, [...argv, ...mode], env);
        expect({ place, code: ran.code, sent: ran.sent }).toEqual({ place, code: 2, sent: [] });
      }
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it("the service's own refusals (403 for a non-admin key, 404): exit 4 and 1, without the key", async () => {
    const user = { PAGERLY_API_KEY: SECRET_USER_KEY };
    const cases: [string[], number][] = [
      [['directory', 'set', 'x@acme.example', '--name', 'X'], 4],
      [['directory', 'role', 'katherine@acme.example', 'admin'], 4],
      [['directory', 'remove', 'katherine@acme.example'], 4],
      [['on-call', '--team', SECRET_USER_KEY], 1],
      [['directory', 'get', 'nobody@acme.example'], 1],
      [['incident', 'update', 'inc_404', '--title', 'x'], 1],
    ];
    for (const [argv, expected] of cases) {
      for (const mode of [[], ['--json']]) {
        const ran = await cli(`${argv.slice(0, 2).join(' ')} as a user ${mode.join('')}`, [...argv, ...mode], user);
        expect({ argv, code: ran.code, keys: [...new Set(ran.sent)] }).toEqual({ argv, code: expected, keys: [SECRET_USER_KEY] });
      }
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('nothing reached the real stdout, stderr or console with the key, and no file holds it', () => {
    watch.text('process stdout, stderr and console', world.output.text);
    watch.files('temp folder', world.temp.dir);
    // The CLI wrote no file of its own next to the ones it was given, besides the watch state it
    // was asked for (bad.csv holds the key on purpose, as typed by a user: it is not searched).
    expect(readdirSync(files).sort()).toEqual(['bad.csv', 'people.csv', 'watch.json']);
    watch.text('the on-call watch state', readFileSync(join(files, 'watch.json'), 'utf8'));
    watch.text('people.csv after the sync', readFileSync(join(files, 'people.csv'), 'utf8'));
    expect(watch.leaks(SECRETS)).toEqual([]);
    expect(watch.size).toBeGreaterThan(600);
  });
});
