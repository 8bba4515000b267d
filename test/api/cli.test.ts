import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXIT, exitCodeTable } from '../../cli/exit-codes.ts';
import { Command } from 'commander';
import { ENV, ENV_USES, type RangedParser, wholeNumber } from '../../cli/settings.ts';
import type { ApiItem, SurfaceReport } from '../../scripts/api/model.ts';
import { commandItems, documentItems, exitCodeItems, extractor } from '../../scripts/api/surfaces/cli.ts';
import { type CliSandbox, run, startCliSandbox } from '../cli/support.ts';

/**
 * The CLI's report holds what the command line really offers: every command and flag that
 * commander's own help shows, every exit code, every variable, and the keys a real `--json`
 * document carries. A change made to a copy (an exit code renumbered or renamed, a document's
 * key renamed, removed or made optional) changes the items it should and no other.
 */

let cli: SurfaceReport;
let s: CliSandbox;
beforeAll(async () => {
  [cli, s] = await Promise.all([extractor.extract(), startCliSandbox()]);
}, 60_000);
afterAll(() => s.close());

const byId = (items: readonly ApiItem[]) => new Map(items.map((i) => [i.id, i]));
const ids = (items: readonly ApiItem[], prefix: string) => items.filter((i) => i.id.startsWith(prefix)).map((i) => i.id);

/** Every key path in a JSON value, as the report writes them (`a.b`, `list[].c`). */
function keyPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((element) => [`${path}[]`, ...keyPaths(element, `${path}[]`)]);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const at = path ? `${path}.${key}` : key;
    return [at, ...keyPaths(inner, at)];
  });
}

describe('the CLI report against the command line', () => {
  it('is sorted, without duplicates, absolute paths or times', () => {
    const list = cli.items.map((i) => i.id);
    expect(list).toEqual([...list].sort());
    expect(new Set(list).size).toBe(list.length);
    const text = JSON.stringify(cli);
    expect(text).not.toContain(fileURLToPath(new URL('../../', import.meta.url)));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it('has every command and flag that commander prints in each command help, with whether it takes a value', async () => {
    const commands = cli.items
      .filter((i) => i.kind === 'command' && !i.id.endsWith(' help') && i.id !== 'command/help')
      .map((i) => i.id.slice('command/'.length));
    expect(commands).toEqual(
      expect.arrayContaining(['check', 'teams', 'on-call', 'on-call watch', 'incident create', 'incident update', 'directory sync', 'directory remove', 'mcp']),
    );
    const items = byId(cli.items);
    let checked = 0;
    for (const path of ['', ...commands]) {
      const help = (await run([...(path ? path.split(' ') : []), '--help'])).stdout;
      // The command's own options and, below them, the global ones.
      const options = help
        .split(/\n(?:Global )?Options:\n/)
        .slice(1)
        .map((section) => section.split('\n\n')[0]!)
        .join('\n');
      // Each option line: "  -t, --title <text>  what is wrong".
      for (const line of options.split('\n')) {
        const match = /^ {2}(?:(-\w), )?(--[\w-]+)( [<[])?/.exec(line);
        if (!match) continue;
        const [, short, long, value] = match;
        checked += 1;
        const local = items.get(`command/${path}/flag/${long}`);
        const found = local ?? items.get(`flag/${long}`);
        expect({ path, long, found: found !== undefined }).toEqual({ path, long, found: true });
        expect(found!.facts['takesValue']).toBe(value !== undefined);
        if (short) expect((items.get(`command/${path}/flag/${short}`) ?? items.get(`flag/${short}`))?.facts['aliasOf']).toBe(long);
      }
      // And nothing the report has for this command is missing from its help.
      for (const id of ids(cli.items, `command/${path}/flag/--`)) expect(options).toContain(id.split('/flag/')[1]);
    }
    // Every command's help lists the global options too: many lines were compared.
    expect(checked).toBeGreaterThan(100);
  }, 60_000);

  it('has every exit code, named as EXIT names it, and every variable of ENV, which help lists', async () => {
    const help = (await run(['--help'])).stdout;
    for (const name of Object.values(ENV)) expect(help).toMatch(new RegExp(`\\n {2}${name} +\\S`));
    const items = byId(cli.items);
    for (const [name, code] of Object.entries(EXIT)) expect(items.get(`exit-code/${code}`)?.facts['meaning']).toBe(name);
    expect(ids(cli.items, 'exit-code/')).toHaveLength(Object.keys(EXIT).length);
    expect(ids(cli.items, 'env/').sort()).toEqual(
      Object.values(ENV)
        .map((name) => `env/${name}`)
        .sort(),
    );
    expect(items.get('env/PAGERLY_API_KEY')?.facts['description']).toBe(ENV_USES.apiKey);
    // The ranges the flags' parsers accept, as their help says them.
    expect(items.get('command/directory sync/flag/--concurrency')?.facts).toMatchObject({ minimum: 1, maximum: 32 });
    expect(items.get('flag/--retries')?.facts).toMatchObject({ minimum: 0, maximum: 10 });
  });

  it('has every key of the documents the commands print with --json', async () => {
    const items = byId(cli.items);
    const team = s.sandbox.world.teams.values().next().value!;
    const runs: [string, string[]][] = [
      ['teams', ['teams', '--json']],
      ['on-call', ['on-call', '--json']],
      ['check', ['check', '--json']],
      ['incident create', ['incident', 'create', '--title', 'Disk full', '--severity', 'P2', '--team', team.name, '--json']],
    ];
    for (const [command, argv] of runs) {
      const r = await s.cli(argv);
      expect(r.code).toBe(0);
      for (const path of keyPaths(JSON.parse(r.stdout))) {
        expect({ command, path, reported: items.has(`command/${command}/json/${path}`) }).toEqual({ command, path, reported: true });
      }
    }
    const failed = await s.cli(['directory', 'get', 'nobody@acme.example', '--json']);
    expect(failed.code).toBe(EXIT.failure);
    for (const path of keyPaths(JSON.parse(failed.stderr))) expect(items.has(`json-error/${path}`)).toBe(true);
  }, 60_000);

  it('reads every environment variable the CLI and its MCP server read from ENV, the table the report lists', () => {
    // A variable read by a name written out (`env.OPSGENIE_API_KEY`, `env['X']`, `process.env`)
    // would be missing from the report: a command added later (directory import) is reported
    // with its variables only if it reads them through ENV.
    const folders = ['cli', 'mcp-server'].map((folder) => fileURLToPath(new URL(`../../${folder}/`, import.meta.url)));
    const files = folders.flatMap((folder) =>
      readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => join(entry.parentPath, entry.name)),
    );
    expect(files.length).toBeGreaterThan(30);
    const byName = /\benv\s*(?:\.\s*[A-Za-z_]\w*|\[\s*['"`])|\bprocess\.env\b/;
    const offending = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, at) => (byName.test(line.replace(/\/\/.*$/, '')) ? [`${file}:${at + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it('does not read the CLI from dist/', () => {
    expect(JSON.stringify(cli)).not.toContain('dist/');
  });
});

describe('a change to a copy of the CLI', () => {
  it("a flag's range narrowed, a flag renamed or made to take a value changes that flag", () => {
    const program = (concurrency: RangedParser, dryRun: string) => {
      const made = new Command('pagerly');
      made.command('sync').option('--concurrency <n>', 'at once', concurrency).option(dryRun, 'plan only');
      return byId(commandItems(made));
    };
    const before = program(wholeNumber('--concurrency', 1, 32), '--dry-run');
    expect(before.get('command/sync/flag/--concurrency')?.facts).toMatchObject({ takesValue: true, minimum: 1, maximum: 32 });
    expect(program(wholeNumber('--concurrency', 1, 16), '--dry-run').get('command/sync/flag/--concurrency')?.facts['maximum']).toBe(16);
    const renamed = program(wholeNumber('--concurrency', 1, 32), '--plan');
    expect(renamed.has('command/sync/flag/--dry-run')).toBe(false);
    expect(renamed.has('command/sync/flag/--plan')).toBe(true);
    expect(program(wholeNumber('--concurrency', 1, 32), '--dry-run <when>').get('command/sync/flag/--dry-run')?.facts['takesValue']).toBe(true);
  });

  it('a command being retired is hidden, and an alias is a command of its own', () => {
    const made = new Command('pagerly');
    made.command('old', { hidden: true }).description('the old way');
    made.command('new').alias('fresh').description('the new way');
    const items = byId(commandItems(made));
    expect(items.get('command/old')?.facts).toEqual({ hidden: true, description: 'the old way' });
    expect(items.get('command/new')?.facts).toEqual({ description: 'the new way' });
    expect(items.get('command/fresh')?.facts).toEqual({ aliasOf: 'new' });
  });

  it('an exit code renumbered or renamed changes that exit code', () => {
    const before = byId(exitCodeItems(EXIT, exitCodeTable));
    const renumbered = byId(exitCodeItems({ ...EXIT, mayHaveApplied: 6 }, exitCodeTable));
    expect(renumbered.has('exit-code/5')).toBe(false);
    expect(renumbered.get('exit-code/6')?.facts['meaning']).toBe('mayHaveApplied');
    const { mayHaveApplied: _, ...rest } = EXIT;
    const renamed = byId(exitCodeItems({ ...rest, unknownOutcome: 5 }, exitCodeTable));
    expect(before.get('exit-code/5')?.facts['meaning']).toBe('mayHaveApplied');
    expect(renamed.get('exit-code/5')?.facts['meaning']).toBe('unknownOutcome');
    // Nothing else moved.
    for (const [id, entry] of before) if (id !== 'exit-code/5') expect(renamed.get(id)).toEqual(entry);
  });

  it("a --json document's key renamed, removed or made optional changes those keys", () => {
    const folder = mkdtempSync(join(tmpdir(), 'pagerly-cli-documents-'));
    try {
      const real = fileURLToPath(new URL('../../cli/json-documents.ts', import.meta.url));
      const variant = join(folder, 'json-documents.ts');
      // The real declarations, with `teams` renamed in one document, `dryRun` gone from the sync's
      // and `file` made optional there.
      writeFileSync(
        variant,
        `import type * as real from ${JSON.stringify(real)};
import type { Team } from ${JSON.stringify(fileURLToPath(new URL('../../shared/schemas/team.ts', import.meta.url)))};
export interface JsonDocuments extends Omit<real.JsonDocuments, 'teams' | 'directory sync'> {
  teams: { groups: Team[] };
  'directory sync': Omit<real.JsonDocuments['directory sync'], 'dryRun' | 'file'> & { file?: string };
}
export type JsonLines = real.JsonLines;
export type JsonErrorDocument = real.JsonErrorDocument;
export type JsonCommandErrorDocuments = real.JsonCommandErrorDocuments;
`,
      );
      const before = byId(documentItems(real));
      const after = byId(documentItems(variant));
      expect(before.has('command/teams/json/teams[].name')).toBe(true);
      expect(after.has('command/teams/json/teams[].name')).toBe(false);
      expect(after.get('command/teams/json/groups[].name')?.facts).toEqual({ type: 'string', required: true });
      expect(after.has('command/directory sync/json/dryRun')).toBe(false);
      expect(before.get('command/directory sync/json/file')?.facts['required']).toBe(true);
      expect(after.get('command/directory sync/json/file')?.facts['required']).toBe(false);
      expect(after.get('command/incident create/json/title')).toEqual(before.get('command/incident create/json/title'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
