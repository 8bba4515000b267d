import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvOf, encode } from '../shared/code-page-names.ts';
import { person, startCliSandbox, syncRefusedUnsent, type CliSandbox } from './support.ts';

/**
 * `pagerly directory sync` on files Excel and older tools saved, end to end: a file whose
 * reading in one code page scores clearly best as names is synced with every name exact
 * against a fresh sandbox; one where two readings come close is refused on a loopback service
 * that counts requests, with none sent, and `--encoding` then syncs it exactly.
 */
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-sync-code-pages-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let s: CliSandbox;
beforeEach(async () => {
  s = await startCliSandbox();
});
afterEach(() => s.close());

const file = (name: string, names: readonly string[], codePage: string) => {
  const path = join(folder, name);
  writeFileSync(path, encode(csvOf(names), codePage));
  return path;
};
const expectWritten = (names: readonly string[]) => {
  names.forEach((name, i) => {
    expect(person(s.sandbox, `person${i + 1}@acme.example`)).toMatchObject({ name });
  });
};

describe('directory sync reads the code page, or refuses', () => {
  it('Windows-1251 (Excel on Russian Windows): detected, every name exact, and the plan says how it was read', async () => {
    const names = ['Иван Петров', 'Ольга Смирнова', 'Сергей Иванов', 'Наталья Кузнецова'];
    const path = file('russian.csv', names, 'windows-1251');
    const dry = await s.cli(['directory', 'sync', path, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout.split('\n')[0]).toMatch(
      /^The file is not UTF-8: it was read as Windows-1251, the code page whose reading scores clearly best as names \(confidence \d+\/100\)/,
    );
    expect(dry.stdout).toContain('name "Иван Петров"');

    const applied = await s.cli(['directory', 'sync', path, '--json']);
    expect(applied.code).toBe(0);
    expect(applied.json()).toMatchObject({ encoding: 'windows-1251', encodingFoundBy: 'detected', summary: { created: 4 } });
    expectWritten(names);
  });

  it.each([
    ['GB18030 (Chinese Windows)', 'gb18030', ['王小明', '李娜', '张伟'], 'gb18030'],
    ['CP949 (Korean Windows)', 'cp949', ['김민준', '이서연', '박지훈'], 'euc-kr'],
    ['CP932 (Japanese Windows)', 'cp932', ['山田 太郎', '佐藤 花子'], 'shift_jis'],
    ['CP850 (Excel\'s "CSV (MS-DOS)")', 'cp850', ['Jürgen Müller', 'Björn Sørensen'], 'ibm850'],
    ['Mac Roman (an old Mac)', 'macintosh', ['Björn Ångström', 'Zoë François'], 'macintosh'],
  ])('%s: detected, every name exact', async (_what, codePage, names, encoding) => {
    const r = await s.cli(['directory', 'sync', file(`${codePage}-read.csv`, names, codePage), '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ encoding, encodingFoundBy: 'detected', summary: { created: names.length } });
    expectWritten(names);
  });

  it.each([
    ['GB18030 (Chinese Windows), one name of two characters', 'gb18030', ['何磊'], 'cp936'],
    ['Windows-1252, one name whose ë the Baltic code pages read as a Lithuanian ė', 'windows-1252', ['Jürgen Brontë'], 'windows-1252'],
    ['Windows-1257 (Baltic Windows), one name', 'windows-1257', ['Rūta Jankauskas'], 'cp1257'],
  ])(
    '%s, that another code page reads about as well as other names: refused with none sent; --encoding syncs it exactly',
    async (_what, codePage, names, flag) => {
      const path = file(`${codePage}.csv`, names, codePage);
      const refused = await syncRefusedUnsent(path);
      expect(refused.stderr).toContain('has ');
      expect(refused.stderr).toContain('nothing was changed');
      expect(refused.stderr).toContain('which code page it was saved in cannot be told from its bytes');
      expect(refused.stderr).toContain(`row 2: name reads `);
      expect(refused.stderr).toContain(`"${names[0]}" in `);
      expect(refused.stderr).toContain('--encoding');

      const r = await s.cli(['directory', 'sync', path, '--encoding', flag, '--json']);
      expect(r.code).toBe(0);
      expect(r.json()).toMatchObject({ encodingFoundBy: 'given', summary: { created: names.length } });
      expectWritten(names);
    },
  );

  it('a file too short to tell (one name of two letters) is refused, naming --encoding; --json says the same', async () => {
    const path = file('short.csv', ['Ян'], 'windows-1251');
    const refused = await syncRefusedUnsent(path, ['--json']);
    expect(refused.errorJson()).toMatchObject({
      error: { code: 'invalid_file', problems: expect.arrayContaining([{ row: 2, field: 'name', problem: expect.stringContaining('"Ян" in windows-1251') }]) },
    });
    expect(refused.stderr).toContain('--encoding');
  });
});
