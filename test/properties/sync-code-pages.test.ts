import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';
import { encode, fullName, SCRIPTS } from '../shared/code-page-names.ts';
import { runs } from './support/runs.ts';

/**
 * A people file of any length, any country's names, saved in any code page its tools write,
 * as CSV (comma, semicolon or tab), JSON or YAML: the names that pass the reader's checks are
 * exactly the ones in the file, or the file is refused. A misread name is never passed on,
 * and with the encoding named every name is exact.
 */
const file = fc
  .constantFrom(...Object.values(SCRIPTS))
  .chain((script) =>
    fc.record({
      codePage: fc.constantFrom(...script.codePages),
      names: fc.array(
        fc.tuple(fc.constantFrom(...script.given), fc.constantFrom(...script.family)).map(([given, family]) => fullName(script, given, family)),
        { minLength: 1, maxLength: 25 },
      ),
      format: fc.constantFrom('csv,', 'csv;', 'csv\t', 'json', 'yaml'),
    }),
  )
  .map(({ codePage, names, format }) => {
    const people = names.map((name, i) => ({ email: `person${i + 1}@acme.example`, name }));
    const text =
      format === 'json'
        ? JSON.stringify(people, null, 2)
        : format === 'yaml'
          ? people.map((p) => `- email: ${p.email}\n  name: ${p.name}\n`).join('')
          : `email${format[3]}name\r\n${people.map((p) => `${p.email}${format[3]}${p.name}`).join('\r\n')}\r\n`;
    return { codePage, names, path: `people.${format.slice(0, 4)}`, bytes: encode(text, codePage) };
  });

/** The names the sync would send, or undefined when the file is refused before anything is sent. */
function namesSent(path: string, bytes: Uint8Array, encoding?: string): unknown[] | undefined {
  const read = readSyncFile(path, () => bytes, { encoding });
  if (!read.ok) return undefined;
  const validation = validateRows(read.rows, read.columns, read.problems);
  return validation.ok ? validation.rows.map((row) => ('name' in row ? row.name : undefined)) : undefined;
}

describe('names in any code page', () => {
  it('arrive exactly, or the file is refused', () => {
    fc.assert(
      fc.property(file, ({ names, path, bytes }) => {
        const sent = namesSent(path, bytes);
        if (sent !== undefined) expect(sent).toEqual(names);
      }),
      { numRuns: runs(400) },
    );
  });

  it('are read, not refused, for a good share of files: the property above holds by reading, not by refusing all', () => {
    const sample = fc.sample(file, { seed: 42, numRuns: 300 });
    const read = sample.filter(({ path, bytes }) => namesSent(path, bytes) !== undefined).length;
    expect(read / sample.length).toBeGreaterThan(0.25);
  });

  it('arrive exactly when the encoding is named', () => {
    fc.assert(
      fc.property(file, ({ codePage, names, path, bytes }) => {
        expect(namesSent(path, bytes, codePage)).toEqual(names);
      }),
      { numRuns: runs(200) },
    );
  });
});
