import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runCheck } from '../../scripts/api/check.ts';
import { freshReports } from '../../scripts/api/fresh-reports.ts';
import type { SurfaceReport } from '../../scripts/api/model.ts';
import { releaseNotes } from '../../scripts/api/notes.ts';
import { packageVersion, readReleasedVersion, releasedDir, reportsDir } from '../../scripts/api/report-files.ts';
import { majorOf } from '../../shared/semver-major.ts';
import { readReport, writeReport } from '../../scripts/api/report-text.ts';
import { FACT_RULES } from '../../scripts/api/rules.ts';
import { extractors } from '../../scripts/api/surfaces/index.ts';
import { updateReports } from '../../scripts/api/update.ts';

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe('the report text', () => {
  const awkward: SurfaceReport = {
    surface: 'cli',
    items: [
      // Ids may hold spaces (a command's words); values may hold anything, tabs and line breaks included.
      { id: 'command/incident create/flag/--title', kind: 'flag', facts: { takesValue: true, help: 'Tab\there,\nnew line, "quotes", a=b, \\ and ✓' } },
      { id: 'exit-code/5', kind: 'exit-code', facts: { meaning: 'NOT_FOUND', code: 5, hidden: false, default: null, choices: ['a', 'b c', ''] } },
      { id: 'a/b', kind: 'x', facts: {} },
    ],
  };

  it('reads back what it wrote, item for item and fact for fact', () => {
    const text = writeReport(awkward);
    const read = readReport('cli', text);
    const byId = (report: SurfaceReport) => [...report.items].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(read)).toEqual(byId(awkward));
    // And writes the same bytes again: sorted by id, facts by name, whatever order they came in.
    expect(writeReport(read)).toBe(text);
    expect(writeReport({ ...awkward, items: [...awkward.items].reverse() })).toBe(text);
  });

  it('is one line per item under a header saying what writes it, with no time or version in it', () => {
    const lines = writeReport(awkward).split('\n');
    expect(lines[0]).toMatch(/^# .*written by `npm run api:update`/);
    expect(lines.slice(1, -1).map((line) => line.split('\t')[0])).toEqual(['a/b', 'command/incident create/flag/--title', 'exit-code/5']);
    expect(lines.at(-1)).toBe('');
  });

  it('refuses what it could not read back: an id with a tab or line break, two items with one id, a bad fact name', () => {
    const one = (id: string, facts = {}) => ({ surface: 'cli' as const, items: [{ id, kind: 'x', facts }] });
    expect(() => writeReport(one('a\tb'))).toThrow(/tab or line break/);
    expect(() => writeReport(one('a\nb'))).toThrow(/tab or line break/);
    expect(() => writeReport(one('# a'))).toThrow(/starts with "#"/);
    expect(() => writeReport({ surface: 'cli', items: [...one('a').items, ...one('a').items] })).toThrow(/two items with the id a/);
    expect(() => writeReport(one('a', { 'no good': 1 }))).toThrow(/fact named/);
  });

  it('says where a hand-edited line is wrong', () => {
    expect(() => readReport('zapier', '# header\ncreate/x\tcreate\tlabel="x\n', 'api/zapier.txt')).toThrow('api/zapier.txt:2: the value of label is not JSON.');
    expect(() => readReport('zapier', 'create/x\tcreate\tcount={"a":1}\n', 'api/zapier.txt')).toThrow(/api\/zapier.txt:1: the value of count is neither/);
    expect(() => readReport('zapier', 'lonely\n', 'api/zapier.txt')).toThrow(/api\/zapier.txt:1: a line needs an id and a kind/);
    expect(() => readReport('zapier', 'a\tx\n<<<<<<< HEAD\n', 'api/zapier.txt')).toThrow(/api\/zapier.txt:2: .*conflict markers/);
    expect(() => readReport('zapier', 'a\tx\tn=1\na\tx\tn=2\n', 'api/zapier.txt')).toThrow('api/zapier.txt:2: a second line for a: run npm run api:update.');
  });
});

describe('the committed reports', () => {
  it('are current: each is what its extractor reads from the source now, byte for byte', async () => {
    const fresh = await freshReports();
    expect(fresh.map((report) => report.surface)).toEqual(extractors.map((entry) => entry.surface));
    for (const report of fresh) {
      const file = join(reportsDir(), `${report.surface}.txt`);
      expect({ file, text: readFileSync(file, 'utf8') }).toEqual({ file, text: writeReport(report) });
      // The smallest surface, the directory Action, has its inputs, outputs and modes: well over ten.
      expect(report.items.length).toBeGreaterThan(10);
    }
  }, 120_000);

  it('npm run api:update changes nothing on a clean tree, run twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-update-'));
    temporary.push(dir);
    cpSync(reportsDir(), dir, { recursive: true });
    expect(await updateReports(dir)).toEqual([]);
    expect(await updateReports(dir)).toEqual([]);
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.txt'))) {
      expect([name, readFileSync(join(dir, name), 'utf8')]).toEqual([name, readFileSync(join(reportsDir(), name), 'utf8')]);
    }
  }, 180_000);

  it('name the released version, never one above package.json', () => {
    const released = readReleasedVersion();
    expect(majorOf(released)).toBeLessThanOrEqual(majorOf(packageVersion()));
    for (const entry of extractors) expect(readdirSync(releasedDir())).toContain(`${entry.surface}.txt`);
  });

  it('pass the check: current, and nothing since the release that this version may not ship', async () => {
    const result = await runCheck();
    expect({ lines: result.lines, ok: result.ok }).toEqual({ lines: [expect.stringMatching(/^api:check: \d+ surfaces .* the reports are current/)], ok: true });
  }, 120_000);
});

describe('the release notes', () => {
  it('have a Breaking and a Compatible section, each difference under its surface, with what to do said once, in Markdown that cannot be broken out of', () => {
    const notes = releaseNotes(
      [
        { surface: 'zapier', id: 'create/x/input/a', kind: 'input', change: 'removed', verdict: 'breaking', advice: 'Zapier: a new major.' },
        { surface: 'zapier', id: 'create/x/input/b', kind: 'input', change: 'required: false → true', verdict: 'breaking', advice: 'Zapier: a new major.' },
        { surface: 'make', id: 'module/x/param/c`d', kind: 'parameter', change: 'choices: added "<b>"', verdict: 'compatible', advice: 'Make: nothing.' },
      ],
      '0.1.0',
      '1.0.0',
    );
    expect(notes).toBe(
      [
        'Changes to the public interface from 0.1.0 to 1.0.0 (npm run api:check -- --notes).',
        '',
        '## Breaking',
        '',
        '### Zapier',
        '',
        '- `create/x/input/a`: removed',
        '- `create/x/input/b`: required: false → true',
        '',
        'What to do: Zapier: a new major.',
        '',
        '## Compatible',
        '',
        '### Make',
        '',
        '- `module/x/param/c\'d`: choices: added "\\<b\\>"',
        '',
      ].join('\n'),
    );
  });

  it('say "None" where there is nothing', () => {
    expect(releaseNotes([], '0.1.0', '0.1.1')).toContain('## Breaking\n\nNone since 0.1.0.\n\n## Compatible\n\nNone since 0.1.0.\n');
  });
});

describe('docs/api-reports.md', () => {
  it('names every fact a rule gives a meaning to, and every surface reported', () => {
    const page = readFileSync(new URL('../../docs/api-reports.md', import.meta.url), 'utf8');
    for (const { fact } of FACT_RULES) expect({ fact, named: page.includes(`\`${fact}\``) }).toEqual({ fact, named: true });
    for (const { surface } of extractors) expect(page).toContain(`api/${surface}.txt`);
  });
});
