import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import type { RowProblem } from '../cli-errors.ts';

export const SYNC_FIELDS = ['email', 'name', 'phone', 'role', 'remove'] as const;
export type SyncField = (typeof SYNC_FIELDS)[number];

export type FileFormat = 'csv' | 'json';

/** One row as it was in the file: values not checked yet, an absent field left out. */
export interface RawRow {
  /** CSV: the line it starts on (the header is row 1); JSON: its place in the array, from 1. */
  readonly row: number;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * A file that could be read as rows, with the problems of single rows found on the way
 * (they are reported together with the validation's); or one that could not be read at all.
 */
export type ReadResult =
  | { ok: true; format: FileFormat; columns: readonly string[] | undefined; rows: readonly RawRow[]; problems: RowProblem[] }
  | { ok: false; problems: RowProblem[] };

/** Reads a sync file: CSV or JSON by extension (`.csv`, `.json`), else by its first character. */
export function readSyncFile(path: string, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): ReadResult {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    return { ok: false, problems: [{ problem: `the file cannot be read: ${why}` }] };
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, problems: [{ problem: 'the file is empty: it needs a header row (email,name,phone,role,remove) and one row per person, or a JSON array' }] };
  return formatOf(path, text) === 'json' ? readJson(text) : readCsv(text);
}

function formatOf(path: string, text: string): FileFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

function readJson(text: string): ReadResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ problem: `the file is not valid JSON: ${(error as Error).message}` }] };
  }
  if (!Array.isArray(parsed)) {
    return { ok: false, problems: [{ problem: 'the file must hold a JSON array of objects, e.g. [{"email": "alex@example.com", "name": "Alex Morgan", "phone": "+14155550123"}]' }] };
  }
  if (parsed.length === 0) return { ok: false, problems: [{ problem: 'the file has no rows: the array is empty' }] };
  const problems: RowProblem[] = [];
  const rows: RawRow[] = [];
  parsed.forEach((item: unknown, index) => {
    const row = index + 1;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ row, problem: 'must be an object with the keys email, name, phone, role, remove' });
      return;
    }
    rows.push({ row, values: item as Record<string, unknown> });
  });
  return { ok: true, format: 'json', columns: undefined, rows, problems };
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

function readCsv(text: string): ReadResult {
  let records: ParsedRecord[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, info: true }) as unknown as ParsedRecord[];
  } catch (error) {
    if (error instanceof CsvError) return { ok: false, problems: [{ problem: `the file is not valid CSV: ${error.message}` }] };
    throw error;
  }
  const [header, ...data] = records;
  if (!header) return { ok: false, problems: [{ problem: 'the file is empty' }] };
  if (data.length === 0) return { ok: false, problems: [{ problem: 'the file has no rows, only a header' }] };
  const columns = header.record.map((name) => name.trim().toLowerCase());
  const problems: RowProblem[] = [];

  const rows: RawRow[] = [];
  for (const { record, info } of data) {
    // info.lines is where the record ends; a quoted value may have spanned lines.
    const row = info.lines - record.reduce((n, value) => n + (value.match(/\n/g)?.length ?? 0), 0);
    if (record.length !== columns.length) {
      problems.push({ row, problem: `has ${record.length} values but the header has ${columns.length} columns (${columns.join(',')})` });
      continue;
    }
    rows.push({ row, values: Object.fromEntries(columns.map((name, i) => [name, record[i] ?? ''])) });
  }
  return { ok: true, format: 'csv', columns, rows, problems };
}
