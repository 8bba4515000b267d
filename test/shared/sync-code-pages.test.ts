import { describe, expect, it } from '@jest/globals';
import { decodeText, encodingNamed } from '../../shared/directory-sync/decode-text.ts';
import { ambiguityProblems } from '../../shared/directory-sync/encoding-ambiguity.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { describeRowProblem } from '../../shared/directory-sync/row-problem.ts';
import { csvOf, encode, fullName, SCRIPTS } from './code-page-names.ts';

/**
 * Files saved in the code pages of Excel's locales (and of old Unix tools and Macs), with the
 * names people there have: each is read exactly, or refused before anything is sent, showing
 * how each plausible code page reads the first names that differ and the `--encoding` to pass.
 * Never a name that differs from the one in the file.
 */
const read = (bytes: Uint8Array, encoding?: string) => readSyncFile('people.csv', () => bytes, { encoding });
const namesOf = (result: ReturnType<typeof read>) => (result.ok ? result.rows.map((row) => row.values['name']) : undefined);
const said = (result: ReturnType<typeof read>) => result.problems.map(describeRowProblem).join('\n');

const RUSSIANS = ['Иван Петров', 'Ольга Смирнова', 'Сергей Иванов', 'Наталья Кузнецова'];

/** The two first names of a script, and all its names (one row each). */
const files = Object.entries(SCRIPTS).flatMap(([label, script]) => {
  const all = script.given.map((given, i) => fullName(script, given, script.family[i % script.family.length]!));
  return script.codePages.flatMap((codePage) => [
    [label, codePage, 'two rows', all.slice(0, 2)] as const,
    [label, codePage, `${all.length} rows`, all] as const,
  ]);
});

describe('every name arrives exactly, or the file is refused', () => {
  it.each(files)('%s in %s, %s', (_label, codePage, _size, names) => {
    const result = read(encode(csvOf(names), codePage));
    if (result.ok) {
      expect(namesOf(result)).toEqual(names);
      expect(result).toMatchObject({
        foundBy: 'detected',
        problems: [],
        note: expect.stringMatching(/the one code page that reads (it as names|its characters as the common characters of names)/),
      });
    } else {
      // The refusal shows the file's own names as its code page (or one that reads them the same) reads them, and the flag.
      expect(said(result)).toContain('--encoding');
      expect(said(result)).toContain(`"${names[0]}" in `);
    }
  });

  it.each(files)('%s in %s, %s, with --encoding: exact', (_label, codePage, _size, names) => {
    const result = read(encode(csvOf(names), codePage), codePage);
    expect(result).toMatchObject({ ok: true, foundBy: 'given', problems: [] });
    expect(namesOf(result)).toEqual(names);
  });
});

describe('what is read, and what is refused', () => {
  it.each([
    ['windows-1251', RUSSIANS, 'windows-1251'],
    ['koi8-r', ['Иван Петров', 'Ольга Смирнова'], 'koi8-r'],
    ['iso-8859-5', ['Иван Петров', 'Ольга Смирнова'], 'iso-8859-5'],
    ['iso-8859-7', ['Γιώργος Παπαδόπουλος', 'Μαρία Κωνσταντίνου'], 'windows-1253'],
    ['windows-1250', ['Jiří Novák', 'Łukasz Wójcik', 'Zofia Wiśniewska'], 'windows-1250'],
    ['big5', ['陳美玲', '林志明'], 'big5'],
  ])('%s: %j is read, the only code page that reads it as names, and the plan names it', (codePage, names, encoding) => {
    const result = read(encode(csvOf(names), codePage));
    expect(result).toMatchObject({
      ok: true,
      encoding,
      foundBy: 'detected',
      problems: [],
      note: expect.stringContaining('the one code page that reads it as names'),
    });
    expect(namesOf(result)).toEqual(names);
  });

  it.each([
    ['gb18030', ['王小明', '李娜'], 'gb18030'],
    ['cp936', ['张伟', '刘芳', '陈静'], 'gb18030'],
    ['cp949', ['김민준', '이서연', '박지훈'], 'euc-kr'],
    ['shift_jis', ['山田 太郎', '佐藤 花子'], 'shift_jis'],
    ['euc-jp', ['山田 太郎', '佐藤 花子', '鈴木 健太'], 'euc-jp'],
  ])('%s: %j reads as names in other CJK code pages too, but only here as the characters names are written with: read', (codePage, names, encoding) => {
    const result = read(encode(csvOf(names), codePage));
    expect(result).toMatchObject({ ok: true, encoding, foundBy: 'detected', problems: [], note: expect.stringContaining('the common characters of names') });
    expect(namesOf(result)).toEqual(names);
  });

  it('Greek in ISO-8859-7 is read as Windows-1253, which reads every byte of it the same, and the plan says so', () => {
    const result = read(encode(csvOf(['Γιώργος Παπαδόπουλος', 'Μαρία Κωνσταντίνου']), 'iso-8859-7'));
    expect(result.ok && result.note).toContain('ISO-8859-7 reads it the same');
  });

  it.each([
    ['gb18030', ['王小明'], 'gb18030'],
    ['cp949', ['김민준', '이서연'], 'euc-kr'],
    ['windows-1251', ['Иван Петров', 'Ольга Смирнова'], 'windows-1251'],
    ['windows-1250', ['Łukasz Wójcik', 'Zofia Dąbrowska'], 'windows-1250'],
  ])('%s %j: several code pages read names that differ: refused, each reading shown', (codePage, names, encoding) => {
    const result = read(encode(csvOf(names), codePage));
    expect(result.ok).toBe(false);
    expect(result.problems[0]!.problem).toMatch(
      /^the file is not UTF-8, and which code page it was saved in cannot be told from its bytes: \d+ read it as names, and the names differ/,
    );
    expect(result.problems[0]!.problem).toContain(`Name the one whose names are right with --encoding (`);
    expect(result.problems[0]!.problem).toContain(encoding);
    expect(result.problems[1]).toEqual({ row: 2, field: 'name', problem: expect.stringContaining(`"${names[0]}" in ${encoding}`) });
  });

  it('a file too short to tell (one Russian name of two letters) is refused, naming --encoding', () => {
    const result = read(encode(csvOf(['Ян']), 'windows-1251'));
    expect(result.ok).toBe(false);
    expect(said(result)).toContain('"Ян" in windows-1251');
    expect(said(result)).toContain('--encoding');
  });

  it('the Action names its input instead of the flag', () => {
    const result = readSyncFile('people.csv', () => encode(csvOf(['王小明']), 'gb18030'), { encodingOption: 'the `encoding` input' });
    expect(result.problems[0]!.problem).toContain('Name the one whose names are right with the `encoding` input (');
    expect(said(result)).not.toContain('--encoding');
  });

  const NORDIC = ['Jürgen Müller', 'Björn Sørensen', 'Håkon Aas'];

  it.each(['cp850', 'cp437', 'cp865'])(
    '%s (Excel\'s "CSV (MS-DOS)"), which no decoder here reads but Mac Roman reads as other names: refused, never sent as mojibake',
    (codePage) => {
      const result = read(encode(csvOf(NORDIC), codePage));
      expect(result.ok).toBe(false);
      expect(result.problems[0]!.problem).toMatch(
        /^the file is not UTF-8, and the one code page that reads it as names is Mac Roman, which the detector cannot score/,
      );
      expect(result.problems[0]!.problem).toContain('If the names below are right, pass --encoding macintosh');
      expect(result.problems[0]!.problem).toContain(`if the file came from Excel's "CSV (MS-DOS)", save it again as "CSV UTF-8"`);
      // How Mac Roman reads the first names, so the person who knows them sees they are wrong.
      expect(result.problems.slice(1)).toEqual([
        { row: 2, field: 'name', problem: 'reads "JÅrgen MÅller" in macintosh' },
        { row: 3, field: 'name', problem: expect.stringMatching(/^reads "Bjîrn S.rensen" in macintosh$/) },
        { row: 4, field: 'name', problem: 'reads "HÜkon Aas" in macintosh' },
      ]);
    },
  );

  it('a Mac Roman file is refused the same way, its names shown right, and read exactly with --encoding macintosh', () => {
    const names = ['Anna Smith', ...NORDIC, 'Zoë François'];
    const bytes = encode(csvOf(names), 'macintosh');
    const refused = read(bytes);
    expect(refused.ok).toBe(false);
    expect(refused.problems[0]!.problem).toContain('pass --encoding macintosh');
    // The rows beyond ASCII: an ASCII name reads the same in every code page and tells nothing.
    expect(refused.problems.slice(1)).toEqual(NORDIC.map((name, i) => ({ row: i + 3, field: 'name', problem: `reads "${name}" in macintosh` })));
    const given = read(bytes, 'macintosh');
    expect(given).toMatchObject({ ok: true, encoding: 'macintosh', foundBy: 'given', problems: [] });
    expect(namesOf(given)).toEqual(names);
  });

  it('the Action names its input set to the code page, not the flag', () => {
    const result = readSyncFile('people.csv', () => encode(csvOf(NORDIC), 'cp850'), { encodingOption: 'the `encoding` input' });
    expect(result.problems[0]!.problem).toContain('pass the `encoding` input set to macintosh;');
    expect(said(result)).not.toContain('--encoding');
  });

  it('a reading chardet cannot score is shown line by line when it does not parse', () => {
    const bytes = Buffer.concat([Buffer.from('email,name\r\n"a@acme.example,J'), encode('ü', 'cp850'), Buffer.from('rgen\r\n')]);
    const result = read(bytes);
    expect(result.ok).toBe(false);
    expect(result.problems.slice(1)).toEqual([{ problem: 'line 2 reads "\\"a@acme.example,JÅrgen" in macintosh' }]);
  });

  it('bytes no code page reads as names are refused, saying so', () => {
    // 0xA9 after a letter: © in most code pages, Š after a lowercase letter in ISO-8859-2, a
    // box-drawing character in KOI8-R, a Thai letter after a Latin one in Windows-874.
    const bytes = Buffer.concat([Buffer.from('email,name\r\na@acme.example,Ana'), Buffer.from([0xa9]), Buffer.from(' Lee\r\n')]);
    const result = read(bytes);
    expect(result.ok).toBe(false);
    expect(result.problems[0]!.problem).toContain('no code page this reader tells apart reads it as names');
  });

  it('a reading shown in a refusal has its control, format and bidi characters escaped: they are the bytes of an untrusted file', () => {
    const readings = [
      { encoding: 'windows-1252', text: 'email,name\r\na@acme.example,Ana þ\r\n' },
      { encoding: 'windows-1256', text: 'email,name\r\na@acme.example,Ana \u200f\u202e\u001b[2J\r\n' },
    ];
    const rowsOf = (text: string) => [{ row: 2, values: { name: text.split(',').at(-1)!.trim() } }];
    const problems = ambiguityProblems(readings, 'names-differ', rowsOf, '--encoding');
    expect(problems[1]).toEqual({ row: 2, field: 'name', problem: 'reads "Ana þ" in windows-1252, "Ana \\u200f\\u202e\\u001b[2J" in windows-1256' });
  });

  it('JSON and YAML files are told the same way, their rows shown by number', () => {
    const yaml = encode('- email: a@acme.example\n  name: 王小明\n', 'gb18030');
    const result = readSyncFile('people.yaml', () => yaml);
    expect(result.ok).toBe(false);
    expect(result.problems[1]).toEqual({ row: 1, field: 'name', problem: expect.stringContaining('"王小明" in gb18030') });
    const people = RUSSIANS.map((name, i) => ({ email: `p${i}@acme.example`, name }));
    const json = encode(JSON.stringify(people), 'windows-1251');
    expect(namesOf(readSyncFile('people.json', () => json))).toEqual(RUSSIANS);
  });

  it('a file longer than the sample is decided on all of it: a name that reads two ways at its end refuses it', () => {
    const germans = Array.from({ length: 4000 }, (_, i) => ['Bob Müller', 'Jürgen Köhler'][i % 2]!);
    expect(namesOf(read(encode(csvOf(germans), 'windows-1252')))).toEqual(germans);
    const withFrench = read(encode(csvOf([...germans, 'Zoë François']), 'windows-1252'));
    expect(withFrench.ok).toBe(false);
    expect(said(withFrench)).toContain('"Zoë François" in windows-1252');
    const russians = Array.from({ length: 4000 }, (_, i) => RUSSIANS[i % RUSSIANS.length]!);
    expect(namesOf(read(encode(csvOf(russians), 'windows-1251')))).toEqual(russians);
  });

  it('pure ASCII needs no detection: it is UTF-8', () => {
    expect(decodeText(Buffer.from('email,name\r\na@acme.example,Ana Lee\r\n'))).toMatchObject({ ok: true, encoding: 'utf-8', foundBy: 'utf-8' });
  });

  it("--encoding takes Windows' own names of the code pages too", () => {
    expect([encodingNamed('cp932'), encodingNamed('CP936'), encodingNamed('cp949'), encodingNamed('cp950'), encodingNamed('mac-roman')]).toEqual([
      'shift_jis',
      'gbk',
      'euc-kr',
      'big5',
      'macintosh',
    ]);
    expect(namesOf(read(encode(csvOf(['김민준']), 'cp949'), 'cp949'))).toEqual(['김민준']);
  });
});
