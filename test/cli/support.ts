import { expect } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';
import type { Env } from '../../cli/settings.ts';
import { createSandbox, demoSeed, type Sandbox, type Seed } from '../../sandbox/index.ts';
import { loopbackServer } from '../support/loopback-server.ts';

/** Recognisable keys: every run checks that none of them appears in any output. */
export const KEYS = {
  admin: 'cli-test-key-admin-5f2a7c9e41',
  user: 'cli-test-key-user-8d1b3e6a07',
  owner: 'cli-test-key-owner-2c4e6a8b19',
  wrong: 'cli-test-key-wrong-0000000000',
} as const;
export const KEY_MARK = 'cli-test-key';

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The demo world, with the test keys for Grace (admin), Alan (user) and Ada (owner). */
export const cliSeed: Seed = {
  ...demoSeed,
  organizations: demoSeed.organizations.map((org) =>
    org.id !== 'org_acme'
      ? org
      : {
          ...org,
          apiKeys: [
            ...org.apiKeys,
            { key: KEYS.admin, personId: 'usr_grace' },
            { key: KEYS.user, personId: 'usr_alan' },
            { key: KEYS.owner, personId: 'usr_ada' },
          ],
        },
  ),
};

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws when it is not). */
  json(): any;
  /** stderr parsed as JSON (throws when it is not). */
  errorJson(): any;
}

/** A stand-in for stdout or stderr that keeps what the CLI writes (not a terminal unless asked). */
export class Capture {
  text = '';
  readonly isTTY: boolean;
  readonly columns = 100;
  constructor(isTTY = false) {
    this.isTTY = isTTY;
  }
  write = (chunk: string) => {
    this.text += chunk;
    return true;
  };
}

/** Runs the command line in process, as `pagerly ...argv` would, and checks no key leaked. */
export async function run(argv: readonly string[], options: { env?: Env; tty?: boolean } = {}): Promise<Run> {
  const stdout = new Capture(options.tty ?? false);
  const stderr = new Capture(options.tty ?? false);
  const code = await main(argv, options.env ?? {}, { stdout, stderr });
  expect(stdout.text).not.toContain(KEY_MARK);
  expect(stderr.text).not.toContain(KEY_MARK);
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    json: () => JSON.parse(stdout.text),
    errorJson: () => JSON.parse(stderr.text),
  };
}

export interface CliSandbox {
  sandbox: Sandbox;
  url: string;
  /** `pagerly --base-url <sandbox> ...argv` with the admin's key (or `key`) in PAGERLY_API_KEY. */
  cli(argv: readonly string[], options?: { key?: string | null; tty?: boolean; env?: Env }): Promise<Run>;
  close(): Promise<void>;
}

export async function startCliSandbox(): Promise<CliSandbox> {
  const sandbox = await createSandbox({ seed: cliSeed });
  const url = await sandbox.listen();
  return {
    sandbox,
    url,
    cli: (argv, { key = KEYS.admin, tty, env = {} } = {}) =>
      run(['--base-url', url, ...argv], { env: { ...(key === null ? {} : { PAGERLY_API_KEY: key }), ...env }, ...(tty === undefined ? {} : { tty }) }),
    close: () => sandbox.close(),
  };
}

/** A directory entry of the sandbox's Acme, by e-mail. */
export function person(sandbox: Sandbox, email: string) {
  return [...sandbox.world.people.values()].find((p) => p.orgId === 'org_acme' && p.email.toLowerCase() === email.toLowerCase());
}

/** The world's directory of Acme as plain data, to check that nothing changed. */
export function acmeDirectory(sandbox: Sandbox) {
  return [...sandbox.world.people.values()]
    .filter((p) => p.orgId === 'org_acme')
    .map(({ email, name, phone, role }) => ({ email, name, phone, role }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * Runs `directory sync <path> ...extra` against a loopback service that counts requests: the
 * file must be refused (exit 2, nothing on stdout) with none sent.
 */
export async function syncRefusedUnsent(path: string, extra: readonly string[] = []): Promise<Run> {
  let requests = 0;
  const server = await loopbackServer((_request, response) => {
    requests += 1;
    response.writeHead(500).end();
  });
  try {
    const r = await run(['--base-url', server.url, 'directory', 'sync', path, ...extra], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(requests).toBe(0);
    return r;
  } finally {
    await server.close();
  }
}
