import { extname } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Document, visit } from 'yaml';
import { MAX_SYNC_FILE_BYTES, readSyncFile } from '../directory-sync/read-file.ts';
import { describeRowProblem } from '../directory-sync/row-problem.ts';
import { guardFormula } from '../directory-sync/spreadsheet-formula.ts';
import { validateRows } from '../directory-sync/validate-rows.ts';
import type { ImportedRow } from './select-people.ts';

export type PeopleFormat = 'yaml' | 'csv';

/** The file's format from its extension: `.yaml`/`.yml` YAML, `.csv` CSV; undefined for any other. */
export function peopleFormatOf(path: string): PeopleFormat | undefined {
  const extension = extname(path).toLowerCase();
  return extension === '.yaml' || extension === '.yml' ? 'yaml' : extension === '.csv' ? 'csv' : undefined;
}

/**
 * Characters that change how a text looks without showing (bidi controls, zero-width
 * characters, line and paragraph separators): in YAML they are written as `\uXXXX` escapes
 * inside double quotes, so a reviewer sees them in the diff and they cannot reorder it. The
 * value read back is the same. (Control characters never get here: such a person is skipped.)
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/u;
const INVISIBLE_ALL = /[\p{Cf}\p{Zl}\p{Zp}]/gu;
/** YAML's escapes: `\uXXXX`, or `\UXXXXXXXX` past the first plane (a tag character, U+E0020). */
const escaped = (character: string) => {
  const code = character.codePointAt(0)!;
  return code > 0xffff ? `\\U${code.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
};

const columnsOf = (withPhone: boolean) => (withPhone ? ['email', 'name', 'phone', 'role'] : ['email', 'name', 'role']);

/**
 * The people file's text. YAML: a list of people, a value quoted wherever YAML 1.1 or 1.2 would
 * read it as anything but that text (`yes`, `null`, `007`, `+14155550123`, a `#`); CSV: a
 * header row and a row per person, quoted where CSV needs it, a formula-like cell guarded
 * (spreadsheet-formula.ts), with a UTF-8 BOM so Excel reads it as UTF-8. `withPhone` false
 * (a source that gives no numbers) leaves the phone out altogether, so a sync keeps each
 * entry's number; with it, a person without one has an empty phone, which a sync clears.
 */
export function renderPeople(rows: readonly ImportedRow[], format: PeopleFormat, options: { withPhone: boolean; comment: string }): string {
  const columns = columnsOf(options.withPhone);
  const cells = (row: ImportedRow): Record<string, string> => ({
    email: row.email,
    name: row.name,
    ...(options.withPhone ? { phone: row.phone ?? '' } : {}),
    role: row.role,
  });
  if (format === 'csv') {
    const records = rows.map((row) => {
      const values = cells(row);
      return columns.map((column) => (column === 'email' || column === 'name' ? guardFormula(values[column]!) : values[column]!));
    });
    // Quoted where a reader would otherwise change the cell: around the separators Excel uses in other locales, and spaces at either end.
    return `\uFEFF${stringify([columns, ...records], { quoted_match: /[;\t]|^\s|\s$/, eof: true })}`;
  }
  const document = new Document(
    rows.map((row) => cells(row)),
    { version: '1.1' },
  );
  document.commentBefore = options.comment
    .split('\n')
    .map((line) => ` ${line}`)
    .join('\n');
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && INVISIBLE.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // Only a double-quoted value can hold these now: an escape there reads as the character itself.
  return document.toString({ lineWidth: 0, defaultKeyType: 'PLAIN' }).replace(INVISIBLE_ALL, escaped);
}

/**
 * The first way `text` would not read back, through the sync's own reader and checks, as
 * exactly these rows (e-mail, name, phone, role), or undefined when it reads back exact.
 * Nothing is written from a text that does not.
 */
export function readBackDifference(path: string, text: string, rows: readonly ImportedRow[], withPhone: boolean): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_SYNC_FILE_BYTES)
    return `the file would be ${bytes.length} bytes, more than the ${MAX_SYNC_FILE_BYTES} a sync reads: import fewer people at a time`;
  const read = readSyncFile(path, () => bytes);
  const validation = read.ok ? validateRows(read.rows, read.columns, read.problems) : { ok: false as const, problems: read.problems };
  if (!validation.ok) return validation.problems.slice(0, 3).map(describeRowProblem).join('; ');
  if (validation.rows.length !== rows.length) return `it reads as ${validation.rows.length} rows, not ${rows.length}`;
  for (const [at, row] of validation.rows.entries()) {
    const want = rows[at]!;
    if (row.remove) return `row ${row.row} reads as a removal`;
    const phone = withPhone ? want.phone : undefined;
    for (const [field, got, expected] of [
      ['email', row.email, want.email],
      ['name', row.name, want.name],
      ['phone', row.phone, phone],
      ['role', row.role, want.role],
    ] as const) {
      if (got !== expected) return `row ${row.row} ${field} reads as ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`;
    }
  }
  return undefined;
}
