import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';

/**
 * The sync's reader on any bytes, in any format and encoding: it never throws, and no row
 * that passes the checks holds U+FFFD (a character a decoder replaced): such a value is
 * never sent, whatever the file.
 */
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  // Text that looks like a file, then encoded one of the ways tools write it.
  fc
    .tuple(
      fc.array(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'ü', 'ë', '@', '.', ',', ';', '\t', '"', '\n', '\r', ' ', '-', ':', '+', '1', '\uFFFD', '😀') }), {
          maxLength: 4,
        }),
        {
          maxLength: 5,
        },
      ),
      fc.constantFrom(',', ';', '\t'),
      fc.constantFrom('utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'),
    )
    .map(([lines, separator, encoding]) => {
      const text = ['email,name,phone'.replaceAll(',', separator), ...lines.map((cells) => cells.join(separator))].join('\n');
      if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
      if (encoding === 'utf-8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
      if (encoding === 'windows-1252') return Buffer.from(text, 'latin1');
      const le = Buffer.from(text, 'utf16le');
      return encoding === 'utf-16le' ? Buffer.concat([Buffer.from([0xff, 0xfe]), le]) : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
    }),
);

describe('the sync reader on any bytes', () => {
  it('never throws, and never passes a value holding U+FFFD', () => {
    fc.assert(
      fc.property(
        bytes,
        fc.constantFrom('people.csv', 'people.json', 'people.yaml', 'people.txt'),
        fc.constantFrom(undefined, 'utf-8', 'latin1', 'utf-16le'),
        (content, path, encoding) => {
          const read = readSyncFile(path, () => content, { encoding });
          if (!read.ok) return;
          const validation = validateRows(read.rows, read.columns, read.problems);
          if (!validation.ok) return;
          expect(JSON.stringify(validation.rows)).not.toContain('\uFFFD');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes good rows in every encoding, and refuses exactly those holding U+FFFD', () => {
    const name = fc.string({ unit: fc.constantFrom('A', 'b', 'ü', 'ë', 'ç', ' ', '\uFFFD'), minLength: 1, maxLength: 12 }).filter((n) => n.trim() !== '');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), name), { minLength: 1, maxLength: 5, selector: ([local]) => local }),
        fc.constantFrom(',', ';', '\t'),
        fc.constantFrom('utf-8', 'utf-16le'),
        (people, separator, encoding) => {
          const text = [`email${separator}name`, ...people.map(([local, n]) => `${local}@acme.example${separator}${n}`)].join('\r\n');
          const content = encoding === 'utf-8' ? Buffer.from(text, 'utf8') : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
          const read = readSyncFile('people.csv', () => content);
          if (!read.ok) throw new Error(JSON.stringify(read.problems));
          const validation = validateRows(read.rows, read.columns, read.problems);
          const replaced = people.filter(([, n]) => n.includes('\uFFFD')).length;
          if (replaced > 0) {
            expect(validation.ok).toBe(false);
            if (!validation.ok) expect(validation.problems.filter((p) => p.problem.includes('U+FFFD'))).toHaveLength(replaced);
          } else {
            expect(validation.ok && validation.rows.map((row) => (row.remove ? '' : row.name))).toEqual(people.map(([, n]) => n.trim()));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
