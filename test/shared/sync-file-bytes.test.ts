import { describe, expect, it } from '@jest/globals';
import { decodeText } from '../../shared/directory-sync/decode-text.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';

/**
 * Bytes the sync reader must not take as names: UTF-16 saved without a BOM (a NUL in every
 * other byte, which is valid UTF-8), and control characters that a misread encoding or a
 * typed line break leaves in a value. Each is decided before anything is sent.
 */
const TEXT = 'email\tname\r\nbob@acme.example\tBob Müller\r\n';
const read = (bytes: Uint8Array, path = 'people.txt') => readSyncFile(path, () => bytes);

describe('UTF-16 without a BOM', () => {
  it('little endian: read as UTF-16LE, and the plan says so', () => {
    const decoded = decodeText(Buffer.from(TEXT, 'utf16le'));
    expect(decoded).toMatchObject({ ok: true, text: TEXT, encoding: 'utf-16le', note: expect.stringContaining('no BOM') });
    const result = read(Buffer.from(TEXT, 'utf16le'));
    expect(result).toMatchObject({ ok: true, problems: [], rows: [{ row: 2, values: { email: 'bob@acme.example', name: 'Bob Müller' } }] });
  });

  it('big endian: read as UTF-16BE', () => {
    expect(decodeText(Buffer.from(TEXT, 'utf16le').swap16())).toMatchObject({ ok: true, text: TEXT, encoding: 'utf-16be' });
  });

  it('a stray NUL in a UTF-8 file is not UTF-16: the file stays UTF-8, and the NUL is refused', () => {
    const bytes = Buffer.from('email,name\nn@acme.example,Nu\u0000l\n');
    expect(decodeText(bytes)).toMatchObject({ ok: true, encoding: 'utf-8' });
    expect(read(bytes, 'people.csv')).toMatchObject({
      ok: true,
      problems: [{ row: 2, field: 'name', problem: expect.stringContaining('control character U+0000 at character 3') }],
    });
  });
});

describe('control characters in a value', () => {
  // "Zoë François" in Mac Roman: ë is 0x91, ç is 0x8D (a C1 control in Windows-1252).
  const macRoman = Buffer.concat([
    Buffer.from('email,name\nzoe@acme.example,Zo'),
    Buffer.from([0x91]),
    Buffer.from(' Fran'),
    Buffer.from([0x8d]),
    Buffer.from('ois\n'),
  ]);

  it('a Mac Roman file, which Windows-1252 reads with a C1 control, is read as Mac Roman, its names exact', () => {
    expect(read(macRoman, 'people.csv')).toMatchObject({
      ok: true,
      encoding: 'macintosh',
      foundBy: 'detected',
      problems: [],
      rows: [{ values: { name: 'Zoë François' } }],
    });
    expect(readSyncFile('people.csv', () => macRoman, { encoding: 'macintosh' })).toMatchObject({
      ok: true,
      encoding: 'macintosh',
      foundBy: 'given',
      problems: [],
      rows: [{ values: { name: 'Zoë François' } }],
    });
  });

  it('the same file forced as Windows-1252 leaves a C1 control in the name: refused, naming the encoding flag', () => {
    const result = readSyncFile('people.csv', () => macRoman, { encoding: 'windows-1252' });
    expect(result).toMatchObject({ ok: true, encoding: 'windows-1252', foundBy: 'given' });
    expect(result.problems).toEqual([
      { row: 2, field: 'name', problem: expect.stringMatching(/^holds the control character U\+008D at character 9: .*--encoding/) },
    ]);
  });

  it('an escape or a vertical tab in a YAML value is refused; a tab or a line break typed in a cell is text', () => {
    expect(read(Buffer.from('- email: t@acme.example\n  name: "Esc\\e[2Jape"\n  role: "us\\ver"\n'), 'people.yaml').problems).toEqual([
      { row: 1, field: 'name', problem: expect.stringContaining('U+001B at character 4') },
      { row: 1, field: 'role', problem: expect.stringContaining('U+000B') },
    ]);
    expect(read(Buffer.from('email,name\nl@acme.example,"Line\nBreak\tTab"\n'), 'people.csv').problems).toEqual([]);
  });

  it('space around a value is not a problem (it is trimmed), nor are letters of any script', () => {
    expect(read(Buffer.from('email,name\r\n\tok@acme.example\t, 山田 太郎 \r\n'), 'people.csv').problems).toEqual([]);
  });

  it('a value with a replaced character is told once, as that', () => {
    const problems = read(Buffer.from('email,name\nf@acme.example,F\uFFFD\u0001o\n'), 'people.csv').problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]!.problem).toContain('U+FFFD');
  });
});

describe('a YAML file that is not a list', () => {
  it('is told in one line, with an example (a terminal shows a line break in a problem as \\n)', () => {
    const result = read(Buffer.from('email: alex@example.com\nname: Alex\n'), 'people.yaml');
    expect(result).toEqual({ ok: false, problems: [{ problem: expect.stringContaining('YAML list of people') }] });
    expect(result.problems[0]!.problem).not.toContain('\n');
  });
});
