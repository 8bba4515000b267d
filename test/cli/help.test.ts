import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { run } from './support.ts';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The subcommands a help text lists under "Commands:" (without `help`). */
function subcommandsIn(help: string): string[] {
  const section = help.split('\nCommands:\n')[1];
  if (!section) return [];
  return section
    .split('\n\n')[0]!
    .split('\n')
    .map((line) => /^ {2}([a-z-]+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** Every command path, found by walking the help texts themselves. */
async function commandTree(path: string[] = []): Promise<string[][]> {
  const help = (await run([...path, '--help'])).stdout;
  const children = subcommandsIn(help);
  const below = await Promise.all(children.map((name) => commandTree([...path, name])));
  return [path, ...below.flat()];
}

describe('help', () => {
  it('exists for every command, with its usage, the global options and the exit codes', async () => {
    const tree = await commandTree();
    expect(tree.map((p) => p.join(' '))).toEqual([
      '',
      'check',
      'teams',
      'on-call',
      'on-call watch',
      'incident',
      'incident create',
      'incident update',
      'directory',
      'directory get',
      'directory set',
      'directory phone',
      'directory role',
      'directory remove',
      'directory sync',
      'directory import',
      'mcp',
    ]);
    for (const path of tree) {
      const r = await run([...path, '--help']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`Usage: pagerly${path.length ? ` ${path.join(' ')}` : ''} `);
      expect(r.stdout).toContain('--api-key <key>');
      expect(r.stdout).toContain('--json');
      if (path.length > 0 && subcommandsIn(r.stdout).length === 0) expect(r.stdout).toContain('Exit codes: 0 ok, 1 failed, 2 bad usage');
      // Every command shows how it is used, starting with `pagerly <its own path>`.
      expect(r.stdout).toMatch(/\nExamples?:\n {2}\S/);
      const examples = r.stdout.split(/\nExamples?:\n/)[1]!.split('\n\n')[0]!;
      expect(examples).toContain(`pagerly ${path.join(' ')}`.trim());
    }
  });

  it('the top-level help documents the exit codes, the environment and examples', async () => {
    const { stdout } = await run(['--help']);
    for (const line of [
      /^ {4}0 {2}done$/m,
      /^ {4}1 {2}failed for another reason/m,
      /^ {4}2 {2}bad usage or a bad input file: nothing was sent$/m,
      /^ {4}3 {2}the API key is missing or was refused$/m,
      /^ {4}4 {2}not allowed/m,
      /^ {3}75 {2}temporary .*safe to retry$/m,
      /^ {2}130 {2}interrupted \(Ctrl-C\)/m,
    ]) {
      expect(stdout).toMatch(line);
    }
    for (const name of ['PAGERLY_API_KEY', 'PAGERLY_BASE_URL', 'PAGERLY_ROTATIONS_BASE_URL', '--timeout <seconds>', '--rotations-base-url <url>', '--version'])
      expect(stdout).toContain(name);
  });

  it("the sync help says only the file's rows are touched, and what the file holds", async () => {
    const { stdout } = await run(['directory', 'sync', '--help']);
    expect(stdout).toContain('the API cannot list the whole directory, so entries not in the file are left alone');
    expect(stdout).toContain('remove  yes, true, 1 or x');
    expect(stdout).toContain('--dry-run');
    expect(stdout).toContain('--concurrency <n>');
  });

  it('`help <command>` works too', async () => {
    expect((await run(['help', 'directory'])).stdout).toContain('Usage: pagerly directory [options] [command]');
    const r = await run(['incident', 'help', 'create']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: pagerly incident create [options]');
  });

  it('--version prints the package version', async () => {
    const r = await run(['--version']);
    expect([r.code, r.stdout]).toEqual([0, `${version}\n`]);
  });
});

describe('bad usage: exit 2', () => {
  it('no command: the help on stderr', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: pagerly');
  });

  it('a group without its subcommand', async () => {
    expect((await run(['directory'])).code).toBe(2);
  });

  it('an unknown command, option, or a missing argument', async () => {
    for (const argv of [['teamz'], ['teams', '--bogus'], ['directory', 'get'], ['directory', 'phone', 'a@b.example'], ['teams', 'extra']]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
  });

  it('--json: the usage error as JSON on stderr, nothing on stdout', async () => {
    const r = await run(['--json', 'teams', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.errorJson()).toEqual({ error: { code: 'usage', message: "unknown option '--bogus'", retryable: false, exitCode: 2 } });
  });

  it('--timeout and --retries must be numbers in range', async () => {
    for (const argv of [
      ['--timeout', 'soon', 'teams'],
      ['--timeout', '0', 'teams'],
      ['--retries', '-1', 'teams'],
      ['--retries', '11', 'teams'],
    ]) {
      const r = await run(argv, { env: { PAGERLY_API_KEY: 'cli-test-key-unused-000000' } });
      expect(r.code).toBe(2);
    }
  });
});
