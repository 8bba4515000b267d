import { directoryLookupInput, directoryUpsertInput } from '../schemas/directory-entry.ts';
import type { settableRoles } from '../schemas/primitives.ts';
import { check } from '../validation.ts';
import type { RowProblem } from './row-problem.ts';
import { SYNC_FIELDS, type RawRow } from './read-file.ts';

type Role = (typeof settableRoles)[number];

/** A row that passed every check, in the shape the API takes (e-mail trimmed, phone in E.164). */
export type SyncRow =
  | { readonly row: number; readonly email: string; readonly remove: true }
  | {
      readonly row: number;
      readonly email: string;
      readonly remove: false;
      readonly name: string;
      /** undefined: the file says nothing about phones (keep the current one); null: no phone. */
      readonly phone: string | null | undefined;
      /** undefined: keep the current role (a new entry is a user). */
      readonly role: Role | undefined;
    };

export type Validation = { ok: true; rows: SyncRow[] } | { ok: false; problems: RowProblem[] };

const TRUTHY = new Set(['yes', 'true', '1', 'x']);
const FALSY = new Set(['', 'no', 'false', '0']);
const KNOWN: ReadonlySet<string> = new Set(SYNC_FIELDS);
const expected = SYNC_FIELDS.join(', ');

/** Absent stays undefined; null and blank text read as empty; text is trimmed; other types are left for the schema to refuse. */
function cell(values: Readonly<Record<string, unknown>>, field: string): unknown {
  if (!Object.hasOwn(values, field)) return undefined;
  const value = values[field];
  if (value === null) return '';
  return typeof value === 'string' ? value.trim() : value;
}

const isEmpty = (value: unknown) => value === undefined || value === '';
const shown = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

function removalOf(value: unknown): boolean | undefined {
  if (value === undefined || value === false || value === 0) return false;
  if (value === true || value === 1) return true;
  if (typeof value !== 'string') return undefined;
  const word = value.toLowerCase();
  return TRUTHY.has(word) ? true : FALSY.has(word) ? false : undefined;
}

/**
 * Checks every row before anything is sent, with the API module's own schemas, and returns
 * either rows ready to plan or every problem found (with its row), never a mix.
 */
export function validateRows(rows: readonly RawRow[], columns: readonly string[] | undefined, earlier: readonly RowProblem[] = []): Validation {
  const problems: RowProblem[] = [...earlier];
  const valid: SyncRow[] = [];

  if (columns) {
    // A misspelt column would silently be ignored (and a phone cleared): refuse it.
    const seen = new Set<string>();
    columns.forEach((name, i) => {
      if (seen.has(name) && name !== '') problems.push({ row: 1, problem: `the column "${name}" appears twice in the header` });
      seen.add(name);
      if (KNOWN.has(name)) return;
      if (name === '' && rows.every((r) => isEmpty(cell(r.values, '')))) return; // a trailing comma
      // The separator is found from the header (read-file.ts): a name still holding one is another separator.
      const hint = /[;\t|]/.test(name) ? ' (is the file separated by another character? Columns are separated by commas, semicolons or tabs)' : '';
      problems.push({
        row: 1,
        problem: name === '' ? `column ${i + 1} has no name in the header` : `unknown column "${name}"${hint}; the columns are ${expected}`,
      });
    });
    if (!columns.includes('email')) problems.push({ row: 1, problem: `the header has no "email" column; the columns are ${expected}` });
  }
  // A missing column is told once, for the header, not again on every row.
  const missingEmailColumn = columns !== undefined && !columns.includes('email');
  const missingNameColumn = columns !== undefined && !columns.includes('name');
  let reportedNameColumn = false;

  const firstRowOf = new Map<string, number>();
  for (const { row, values } of rows) {
    const before = problems.length;
    const add = (field: string | undefined, problem: string) => problems.push({ row, field, problem });
    if (!columns) {
      for (const key of Object.keys(values)) if (!KNOWN.has(key)) add(undefined, `has an unknown key "${key}"; the keys are ${expected}`);
    }
    const email = missingEmailColumn ? 'missing.column@example.com' : cell(values, 'email');
    const name = cell(values, 'name');
    const phone = cell(values, 'phone');
    const role = cell(values, 'role');
    const remove = removalOf(cell(values, 'remove'));

    if (remove === undefined) add('remove', `must be yes, true, 1 or x to remove the entry, or empty (not "${shown(cell(values, 'remove'))}")`);

    if (remove === true) {
      const setting = (['name', 'phone', 'role'] as const).filter((field) => !isEmpty(cell(values, field)));
      if (setting.length > 0) add(undefined, `removes the entry but also sets ${setting.join(', ')}; leave name, phone and role empty on a row that removes`);
      const checked = check(directoryLookupInput, { email });
      if (!checked.ok) for (const p of checked.problems) add(p.field, withValue(p.problem, p.field, { email }));
      else if (problems.length === before) valid.push({ row, email: checked.value.email, remove: true });
    } else if (remove === false) {
      if (missingNameColumn) {
        if (!reportedNameColumn) problems.push({ row: 1, problem: 'the header has no "name" column, which every row that does not remove an entry needs' });
        reportedNameColumn = true;
      }
      const input = {
        email,
        name: missingNameColumn && name === undefined ? 'x' : name,
        ...(isEmpty(phone) ? {} : { phone }),
        ...(isEmpty(role) ? {} : { role }),
      };
      const checked = check(directoryUpsertInput, input);
      if (!checked.ok) for (const p of checked.problems) add(p.field, withValue(p.problem, p.field, { email, phone, role }));
      else if (problems.length === before) {
        valid.push({
          row,
          email: checked.value.email,
          remove: false,
          name: checked.value.name,
          phone: phone === undefined ? undefined : phone === '' ? null : checked.value.phone,
          role: checked.value.role,
        });
      }
    } else {
      const checked = check(directoryLookupInput, { email });
      if (!checked.ok) for (const p of checked.problems) add(p.field, withValue(p.problem, p.field, { email }));
    }

    // Duplicates: the same person twice would be changed twice, in no particular order.
    if (!missingEmailColumn && typeof email === 'string' && email !== '') {
      const key = email.toLowerCase();
      const first = firstRowOf.get(key);
      if (first === undefined) firstRowOf.set(key, row);
      else add('email', `${email} is also on row ${first} (e-mails are compared ignoring letter case); keep one row per person`);
    }
  }

  if (problems.length > 0) return { ok: false, problems: problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0)) };
  return { ok: true, rows: valid };
}

/** The schema's words, with the value that was refused, e.g. `must be ... (not "555-1234")`. */
function withValue(problem: string, field: string, values: Record<string, unknown>): string {
  const value = values[field];
  if (field in values && (value === undefined || value === '')) return 'is required';
  if (problem === 'is required' || typeof value !== 'string') return problem;
  return `${problem} (not "${shown(value)}")`;
}
