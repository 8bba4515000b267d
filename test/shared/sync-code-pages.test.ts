import { describe, expect, it } from '@jest/globals';
import { decodeText, encodingNamed } from '../../shared/directory-sync/decode-text.ts';
import { ambiguityProblems } from '../../shared/directory-sync/encoding-ambiguity.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { describeRowProblem } from '../../shared/directory-sync/row-problem.ts';
import { csvOf, encode, fullName, SCRIPTS } from './code-page-names.ts';

/**
 * Files saved in the code pages of Excel's locales (and of old Unix tools, DOS and Macs), with
 * the names people there have: each is read exactly, or refused before anything is sent,
 * showing how each close code page reads the first names that differ and the `--encoding` to
 * pass. Never a name that differs from the one in the file.
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
        note: expect.stringContaining('the code page whose reading scores clearly best as names'),
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
    ['windows-1252', ['Bob Müller', 'Zoë François'], 'windows-1252'],
    // One name whose ë Windows-1257 reads as a Lithuanian ė after a letter it seldom follows ("Zoė").
    ['windows-1252', ['Zoë Castillo'], 'windows-1252'],
    ['big5', ['陳美玲', '林志明'], 'big5'],
    ['gb18030', ['王小明', '李娜'], 'gb18030'],
    ['cp936', ['张伟', '刘芳', '陈静'], 'gb18030'],
    ['cp949', ['김민준', '이서연', '박지훈'], 'euc-kr'],
    ['shift_jis', ['山田 太郎', '佐藤 花子'], 'shift_jis'],
    ['euc-jp', ['山田 太郎', '佐藤 花子', '鈴木 健太'], 'euc-jp'],
    ['macintosh', ['Anna Smith', 'Jürgen Müller', 'Björn Sørensen', 'Håkon Aas', 'Zoë François'], 'macintosh'],
  ])('%s: %j is read, its reading scoring clearly best as names, and the plan says so', (codePage, names, encoding) => {
    const result = read(encode(csvOf(names), codePage));
    expect(result).toMatchObject({
      ok: true,
      encoding,
      foundBy: 'detected',
      confidence: expect.any(Number),
      problems: [],
      note: expect.stringContaining('the code page whose reading scores clearly best as names (confidence '),
    });
    expect(namesOf(result)).toEqual(names);
  });

  it('Greek in ISO-8859-7 is read as Windows-1253, which reads every byte of it the same, and the plan says so', () => {
    const result = read(encode(csvOf(['Γιώργος Παπαδόπουλος', 'Μαρία Κωνσταντίνου']), 'iso-8859-7'));
    expect(result.ok && result.note).toContain('ISO-8859-7 reads it the same');
  });

  it.each([
    ['gb18030', ['何磊'], 'gb18030'],
    ['windows-1252', ['Jürgen Brontë'], 'windows-1252'],
    ['windows-1257', ['Rūta Jankauskas'], 'windows-1257'],
  ])('%s %j: another code page reads it about as well, as other names: refused, each close reading shown', (codePage, names, encoding) => {
    const result = read(encode(csvOf(names), codePage));
    expect(result.ok).toBe(false);
    expect(result.problems[0]!.problem).toMatch(
      /^the file is not UTF-8, and which code page it was saved in cannot be told from its bytes: \d+ code pages read it as names about equally well, and the names differ/,
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
    const result = readSyncFile('people.csv', () => encode(csvOf(['何磊']), 'gb18030'), { encodingOption: 'the `encoding` input' });
    expect(result.problems[0]!.problem).toContain('Name the one whose names are right with the `encoding` input (');
    expect(said(result)).not.toContain('--encoding');
  });

  const NORDIC = ['Jürgen Müller', 'Björn Sørensen', 'Håkon Aas'];

  it.each(['cp850', 'cp865'])(
    '%s (Excel\'s "CSV (MS-DOS)"): read as DOS 850, which Mac Roman reads as other names ("JÅrgen MÅller") that case and letters give away',
    (codePage) => {
      const result = read(encode(csvOf(NORDIC), codePage));
      expect(result).toMatchObject({ ok: true, encoding: 'ibm850', foundBy: 'detected', problems: [] });
      expect(namesOf(result)).toEqual(NORDIC);
    },
  );

  it('--encoding takes the DOS code pages: cp850, cp437 and cp852 read exactly', () => {
    expect(namesOf(read(encode(csvOf(NORDIC), 'cp850'), 'cp850'))).toEqual(NORDIC);
    expect(namesOf(read(encode(csvOf(['José Núñez']), 'cp437'), 'cp437'))).toEqual(['José Núñez']);
    expect(namesOf(read(encode(csvOf(['Łukasz Wójcik']), 'cp852'), 'ibm852'))).toEqual(['Łukasz Wójcik']);
  });

  it('a refusal whose readings do not parse into the same rows shows the first lines that differ', () => {
    const readings = [
      { encoding: 'windows-1252', text: 'email,name\r\na@acme.example,Zoë\r\n' },
      { encoding: 'windows-1257', text: 'email,name\r\na@acme.example,Zoė\r\n' },
    ];
    const problems = ambiguityProblems(readings, 'names-differ', () => undefined, '--encoding');
    expect(problems.slice(1)).toEqual([{ problem: 'line 2 reads "a@acme.example,Zoë" in windows-1252, "a@acme.example,Zoė" in windows-1257' }]);
  });

  it('bytes no code page reads clearly as names are refused, the close readings shown', () => {
    // 0xA9 after a letter: © in most code pages, Š after a small letter in ISO-8859-2, ę in DOS 852.
    const bytes = Buffer.concat([Buffer.from('email,name\r\na@acme.example,Ana'), Buffer.from([0xa9]), Buffer.from(' Lee\r\n')]);
    const result = read(bytes);
    expect(result.ok).toBe(false);
    expect(said(result)).toContain('--encoding');
  });

  it('bytes no code page reads as names at all are refused, saying so', () => {
    // Symbols or box drawing after a letter in every single-byte reading (°±², ░▒▓), a Han character after a Latin letter in the others.
    const bytes = Buffer.concat([Buffer.from('email,name\r\na@acme.example,Ana'), Buffer.from([0xb0, 0xb1, 0xb2]), Buffer.from(' Lee\r\n')]);
    const result = read(bytes);
    expect(result.ok).toBe(false);
    expect(result.problems[0]!.problem).toContain('no code page this reader tells apart reads it as names');
  });

  it.each([
    ['"Ana" and five bytes, which only DOS 852 reads without a symbol ("Anaóúąžę")', [0xa2, 0xa3, 0xa5, 0xa7, 0xa9], ''],
    ['"Ana" and a word of five bytes, which only DOS 866 reads without a symbol ("вгезй")', [0x20, 0xa2, 0xa3, 0xa5, 0xa7, 0xa9], ''],
    ['a word of those five bytes alone', [0xa2, 0xa3, 0xa5, 0xa7, 0xa9], 'none'],
  ])('garbage that one code page alone reads as letters is refused, not taken as the only reading: %s', (_what, garbage, prefix) => {
    // Every other reading puts a symbol in the word, so this one wins by far; but its letters
    // follow each other as in no one's names: no likelier than letters drawn at random.
    const bytes = Buffer.concat([Buffer.from(`email,name\r\na@acme.example,${prefix === 'none' ? '' : 'Ana'}`), Buffer.from(garbage), Buffer.from('\r\n')]);
    const result = read(bytes);
    expect(namesOf(result)).toBeUndefined();
    expect(result.problems[0]!.problem).toContain('reads no likelier as names than as letters drawn at random');
    // Named, the bytes are read as given: the refusal was the scorer's, not the decoder's.
    expect(namesOf(read(bytes, 'cp852'))).toEqual([expect.any(String)]);
  });

  it('random bytes in a name are seldom taken for a code page: of 600 files of one to four rows of random high bytes, at most 1%', () => {
    // mulberry32, seeded: a failure names files that can be made again.
    let state = 44;
    const random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    let detected = 0;
    for (let file = 0; file < 600; file += 1) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) =>
        Buffer.concat([
          Buffer.from(`p${i}@acme.example,${random() < 0.5 ? 'Ana ' : ''}`),
          Buffer.from(Array.from({ length: 2 + Math.floor(random() * 7) }, () => 0x80 + Math.floor(random() * 128))),
          Buffer.from('\r\n'),
        ]),
      );
      const result = read(Buffer.concat([Buffer.from('email,name\r\n'), ...rows]));
      if (result.ok && result.foundBy === 'detected') detected += 1;
    }
    expect(detected).toBeLessThanOrEqual(6);
  });

  it("Windows-1258's letters and tone marks are composed again: Vietnamese names arrive as they are typed (NFC), detected or named", () => {
    const names = ['Nguyễn Văn An', 'Trần Thị Bích Ngọc', 'Đỗ Mạnh Hùng', 'Phạm Minh Tuấn'];
    // What Windows writes: the letter the code page has, and the tone as a combining mark (ễ is ê and U+0303).
    const written = ['Nguyê\u0303n Văn An', 'Trâ\u0300n Thi\u0323 Bi\u0301ch Ngo\u0323c', 'Đô\u0303 Ma\u0323nh Hu\u0300ng', 'Pha\u0323m Minh Tuâ\u0301n'];
    const bytes = encode(csvOf(written), 'windows-1258');
    expect(new TextDecoder('windows-1258').decode(bytes)).toContain('Nguyê\u0303n');
    expect(namesOf(read(bytes))).toEqual(names);
    expect(namesOf(read(bytes, 'windows-1258'))).toEqual(names);
  });

  it("a middle dot is a name's own only between two l (Catalan) and in Japanese and Chinese names: elsewhere in a Latin word it is a misreading", () => {
    expect(namesOf(read(encode(csvOf(['Marcel·la Bellmunt', 'Núria Gallifa', 'Jordi Puigdomènech']), 'windows-1252')))).toEqual([
      'Marcel·la Bellmunt',
      'Núria Gallifa',
      'Jordi Puigdomènech',
    ]);
    // Mac Roman reads Windows-1252's á (0xE1) as a middle dot: "Siobh·n" is not a reading.
    const irish = encode(csvOf(['Siobhán Murphy', "Seán O'Connor"]), 'windows-1252');
    expect(decodeText(irish)).toMatchObject({ ok: true, encoding: 'windows-1252' });
    expect(namesOf(read(irish))).toEqual(['Siobhán Murphy', "Seán O'Connor"]);
  });

  it('a file put together from two exports in different code pages is refused, naming a line that shows it: no reading of it all is right', () => {
    const french = ['Françoise Lebœuf', 'Joël Ménard', 'Anaïs Girard', 'Thérèse Garnier', 'Clément Rivière'];
    const polish = ['Łukasz Wróblewski', 'Małgorzata Żak', 'Paweł Szczęsny', 'Agnieszka Dąbrowska', 'Grzegorz Śliwiński', 'Bożena Jóźwiak'];
    const polishRows = encode(csvOf(polish), 'windows-1250');
    // cat french.csv polish.csv, the second header dropped: Windows-1250 reads the Polish part and a French one that is not ("Lebśuf").
    const bytes = Buffer.concat([encode(csvOf(french), 'windows-1252'), polishRows.subarray(polishRows.indexOf(0x0a) + 1)]);
    const result = read(bytes);
    expect(namesOf(result)).toBeUndefined();
    expect(result.problems[0]!.problem).toMatch(
      /it is not all in one code page: it reads as names in Windows-1250, but line \d+ reads clearly as Windows-1252/,
    );
    expect(result.problems[1]!.problem).toMatch(/^line \d+ reads ".*" in windows-1250, ".*" in windows-1252$/);
    // Each part alone is read exactly.
    expect(namesOf(read(encode(csvOf(french), 'windows-1252')))).toEqual(french);
    expect(namesOf(read(polishRows))).toEqual(polish);
  });

  it("CP949's Hangul beyond KS X 1001 (똠, 샾, 햏), which Node's own EUC-KR decoder lacks, is read, detected or named; every syllable as iconv-lite encodes it", () => {
    const names = ['김태리', '이병헌', '박보검', '최수빈', '정우성', '강하늘', '김똠', '이샾', '최햏'];
    const bytes = encode(csvOf(names), 'cp949');
    expect(namesOf(read(bytes))).toEqual(names);
    expect(namesOf(read(bytes, 'cp949'))).toEqual(names);
    const syllables = Array.from({ length: 0xd7a4 - 0xac00 }, (_, i) => String.fromCharCode(0xac00 + i)).join('');
    expect(decodeText(encode(`email,name\r\na@acme.example,${syllables}\r\n`, 'cp949'), 'euc-kr')).toMatchObject({
      ok: true,
      text: expect.stringContaining(syllables),
    });
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
    const yaml = encode('- email: a@acme.example\n  name: 何磊\n', 'gb18030');
    const result = readSyncFile('people.yaml', () => yaml);
    expect(result.ok).toBe(false);
    expect(result.problems[1]).toEqual({ row: 1, field: 'name', problem: expect.stringContaining('"何磊" in gb18030') });
    const people = RUSSIANS.map((name, i) => ({ email: `p${i}@acme.example`, name }));
    const json = encode(JSON.stringify(people), 'windows-1251');
    expect(namesOf(readSyncFile('people.json', () => json))).toEqual(RUSSIANS);
  });

  it('a file longer than the sample is scored on the sample and read whole: names past it arrive exact', () => {
    const germans = Array.from({ length: 4000 }, (_, i) => ['Bob Müller', 'Jürgen Köhler'][i % 2]!);
    expect(namesOf(read(encode(csvOf([...germans, 'Zoë François']), 'windows-1252')))).toEqual([...germans, 'Zoë François']);
    const russians = Array.from({ length: 4000 }, (_, i) => RUSSIANS[i % RUSSIANS.length]!);
    expect(namesOf(read(encode(csvOf(russians), 'windows-1251')))).toEqual(russians);
  });

  it("a file longer than the sample whose end no longer reads as names in the sample's code page is decided on all of it: never read as mojibake", () => {
    const germans = Array.from({ length: 4000 }, (_, i) => ['Bob Müller', 'Jürgen Köhler'][i % 2]!);
    // The end in UTF-8: "ZoÃ«" in Windows-1252, a symbol inside a word.
    const bytes = Buffer.concat([encode(csvOf(germans), 'windows-1252'), Buffer.from('zoe@acme.example,Zoë François\r\n', 'utf8')]);
    const result = read(bytes);
    if (result.ok) expect(namesOf(result)).not.toContain('ZoÃ« FranÃ§ois');
    expect(result.ok).toBe(false);
  });

  it('pure ASCII needs no detection: it is UTF-8', () => {
    expect(decodeText(Buffer.from('email,name\r\na@acme.example,Ana Lee\r\n'))).toMatchObject({ ok: true, encoding: 'utf-8', foundBy: 'utf-8' });
  });

  it("--encoding takes Windows' own names of the code pages too", () => {
    expect([
      encodingNamed('cp932'),
      encodingNamed('CP936'),
      encodingNamed('cp949'),
      encodingNamed('cp950'),
      encodingNamed('mac-roman'),
      encodingNamed('CP850'),
    ]).toEqual(['shift_jis', 'gbk', 'euc-kr', 'big5', 'macintosh', 'ibm850']);
    expect(namesOf(read(encode(csvOf(['김민준']), 'cp949'), 'cp949'))).toEqual(['김민준']);
  });
});
