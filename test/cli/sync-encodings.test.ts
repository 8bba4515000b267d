import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, person, startCliSandbox, syncRefusedUnsent, type CliSandbox } from './support.ts';

/**
 * The files people's tools export, byte for byte as those tools write them, synced against a
 * fresh sandbox (real HTTP): Excel's "CSV (Comma delimited)" (Windows-1252; the other code
 * pages are in sync-code-pages.test.ts), "CSV UTF-8" (a
 * BOM, CRLF, title-case headers), "Unicode text" (UTF-16 with a BOM, tab-separated), Europe's
 * semicolons, YAML kept in git. A file holding a character a decoder replaced is refused
 * with nothing sent, checked on a loopback service that counts requests.
 */

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-sync-encodings-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let s: CliSandbox;
beforeEach(async () => {
  s = await startCliSandbox();
});
afterEach(() => s.close());

const file = (name: string, bytes: Uint8Array | string) => {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
};

/** Windows-1252: one byte per character; ü, ë and ç are 0xFC, 0xEB and 0xE7 (as Latin-1 has them). */
const windows1252 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le.swap16()]);
};

/** Two new people with names that only survive a right reading. */
const PEOPLE = [
  ['bob.muller@acme.example', 'Bob Müller', '+14155550131'],
  ['zoe.francois@acme.example', 'Zoë François', '+33155550132'],
] as const;
const rows = (separator: string, newline = '\r\n', header = ['email', 'name', 'phone']) =>
  [header.join(separator), ...PEOPLE.map((p) => p.join(separator))].join(newline) + newline;

const expectBothWritten = () => {
  for (const [email, name, phone] of PEOPLE) expect(person(s.sandbox, email)).toMatchObject({ name, phone });
};

describe('directory sync reads what people export', () => {
  it('Windows-1252 (Excel\'s "CSV (Comma delimited)") with German names: read, and the plan says how in one line', async () => {
    const path = file('excel-windows-de.csv', windows1252('email,name\r\nbob.muller@acme.example,Bob Müller\r\njurgen@acme.example,Jürgen Köhler\r\n'));
    const dry = await s.cli(['directory', 'sync', path, '--dry-run']);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^The file is not UTF-8: it was read as Windows-1252, the code page whose reading scores clearly best as names \(confidence \d+\/100; \d+ other code pages read it the same\); if names look wrong, name its encoding with --encoding, or re-save it as "CSV UTF-8"\.$/,
    );
    expect(dry.stdout).toContain('name "Bob Müller"');
    expect(dry.stdout).toContain('name "Jürgen Köhler"');

    const applied = await s.cli(['directory', 'sync', path, '--json']);
    expect(applied.code).toBe(0);
    expect(applied.json()).toMatchObject({
      encoding: 'windows-1252',
      encodingFoundBy: 'detected',
      encodingConfidence: expect.any(Number),
      summary: { created: 2 },
    });
    expect(person(s.sandbox, 'jurgen@acme.example')).toMatchObject({ name: 'Jürgen Köhler' });
  });

  it('Windows-1252 with "Bob Müller" and "Zoë François", whose ë and ç the Baltic code pages read as other letters: read as Windows-1252, the names exact', async () => {
    const path = file('excel-windows.csv', windows1252(rows(',')));
    const applied = await s.cli(['directory', 'sync', path, '--json']);
    expect(applied.code).toBe(0);
    expect(applied.json()).toMatchObject({ encoding: 'windows-1252', encodingFoundBy: 'detected', summary: { created: 2 } });
    expectBothWritten();
  });

  it.each([
    ['UTF-16 LE', 'unicode-text-le.txt', utf16le],
    ['UTF-16 BE', 'unicode-text-be.txt', utf16be],
  ])('%s with a BOM, tab-separated (Excel\'s "Unicode text")', async (_name, name, encode) => {
    const r = await s.cli(['directory', 'sync', file(name, encode(rows('\t'))), '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ encoding: name.includes('-le') ? 'utf-16le' : 'utf-16be', summary: { created: 2 } });
    expect(r.json().note).toBeUndefined();
    expectBothWritten();
  });

  it('UTF-8 with a BOM, CRLF line ends and headers written Email,Name,Phone ("CSV UTF-8")', async () => {
    const r = await s.cli(['directory', 'sync', file('excel-utf8.csv', `\uFEFF${rows(',', '\r\n', ['Email', 'Name', 'Phone'])}`)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 created');
    expect(r.stdout).not.toContain('Windows-1252');
    expectBothWritten();
  });

  it('semicolons (Excel where the decimal separator is a comma), found from the header row', async () => {
    const r = await s.cli(['directory', 'sync', fixture('semicolons.csv'), '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('create  row 2  alex@acme.example  name "Alex", phone +14155550123');
    const european = await s.cli(['directory', 'sync', file('europe.csv', windows1252(rows(';'))), '--encoding', 'cp1252']);
    expect(european.code).toBe(0);
    expectBothWritten();
  });

  it('tabs in a UTF-8 file, whatever its extension; a quoted value may hold the other separators', async () => {
    const text = 'email\tname\tphone\nbob.muller@acme.example\t"Müller, Bob; Jr"\t+14155550131\n';
    const r = await s.cli(['directory', 'sync', file('people.tsv', text)]);
    expect(r.code).toBe(0);
    expect(person(s.sandbox, 'bob.muller@acme.example')).toMatchObject({ name: 'Müller, Bob; Jr' });
  });

  it('YAML: a list of people with the same fields, every value text (a phone stays a phone)', async () => {
    const yaml = [
      '# Kept in git beside the infrastructure.',
      '- email: bob.muller@acme.example',
      '  name: Bob Müller',
      '  phone: +14155550131',
      '- email: zoe.francois@acme.example',
      "  name: 'Zoë François'",
      '  phone: "+33 1 55 55 01 32"',
      '  role: admin',
      '- email: hedy@acme.example',
      '  remove: yes',
      '',
    ].join('\n');
    const r = await s.cli(['directory', 'sync', file('people.yaml', yaml), '--json']);
    expect(r.code).toBe(0);
    expect(r.json().summary).toMatchObject({ created: 2, removed: 1 });
    expect(r.json().rows.map((row: { row: number; email: string }) => [row.row, row.email])).toEqual([
      [1, 'bob.muller@acme.example'],
      [2, 'zoe.francois@acme.example'],
      [3, 'hedy@acme.example'],
    ]);
    expectBothWritten();
    expect(person(s.sandbox, 'zoe.francois@acme.example')).toMatchObject({ role: 'admin' });
    expect(person(s.sandbox, 'hedy@acme.example')).toBeUndefined();
  });

  it('--encoding overrides the guess; UTF-8 named Latin-1 reads as names encoded twice, which are refused, never sent', async () => {
    const path = file('utf8-as-latin1.csv', rows(','));
    const refused = await syncRefusedUnsent(path, ['--encoding', 'latin1']);
    expect(refused.stderr).toContain('read as Windows-1252 (as --encoding says), the file\'s names are UTF-8 encoded twice ("MÃ¼ller" for "Müller"');
    expect(refused.stderr).toContain('the file is probably UTF-8: leave out --encoding');
    const named = await s.cli(['directory', 'sync', file('named.csv', windows1252(rows(','))), '--encoding', 'windows-1252', '--json']);
    expect(named.json()).toMatchObject({ encoding: 'windows-1252', encodingFoundBy: 'given', summary: { created: 2 } });
    expectBothWritten();
  });

  it('--encoding with a name no decoder knows is a usage error', async () => {
    const r = await s.cli(['directory', 'sync', fixture('people.csv'), '--encoding', 'klingon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--encoding "klingon" is not an encoding a decoder knows');
  });
});

describe('a character a decoder replaced is never sent', () => {
  it('U+FFFD in a value: refused naming its row and column, saying to re-save as UTF-8 or use --encoding', async () => {
    // What a tool writes after it read Windows-1252 as UTF-8 once: the names are already lost.
    const r = await syncRefusedUnsent(file('replaced.csv', rows(',').replace('Müller', 'M\uFFFDller')));
    expect(r.stderr).toContain('row 2: name holds "\uFFFD" (U+FFFD) at character 6');
    expect(r.stderr).toContain('re-save the file as UTF-8 (in Excel: "CSV UTF-8"), or name its encoding with --encoding');
  });

  it('Windows-1252 bytes forced as UTF-8 with --encoding: every replaced character refused, none sent', async () => {
    const r = await syncRefusedUnsent(file('forced.csv', windows1252(rows(','))), ['--encoding', 'utf-8']);
    expect(r.stderr).toContain('row 2: name holds');
    expect(r.stderr).toContain('row 3: name holds');
  });

  it.each([
    ['a JSON key', 'replaced.json', JSON.stringify([{ email: 'bob.muller@acme.example', 'na\uFFFDme': 'Bob' }]), 'line 1, column'],
    ['a YAML value', 'replaced.yaml', '- email: bob.muller@acme.example\n  name: Bob M\uFFFDller\n', 'row 1: name holds'],
    ['a CSV header', 'header.csv', 'email,n\uFFFDme\nbob.muller@acme.example,Bob\n', 'line 1, column 8'],
  ])('U+FFFD in %s', async (_where, name, text, said) => {
    const r = await syncRefusedUnsent(file(name, text));
    expect(r.stderr).toContain(said);
  });
});
