import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import type { RowProblem } from './row-problem.ts';

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

/**
 * The largest sync file read: 10 MiB, about 100,000 people. A directory far larger is better
 * synced in parts, and a bound means a wrong path (a device, a log) is refused at once
 * instead of being read whole into memory.
 */
export const MAX_SYNC_FILE_BYTES = 10 * 1024 * 1024;

/** A file refused before it was read: not a regular file, or too large. */
class RefusedFile extends Error {}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads a regular file of at most `MAX_SYNC_FILE_BYTES`, checked on the open file itself (so
 * the path cannot change between check and read). Opened non-blocking: opening a FIFO with
 * no writer would otherwise wait forever. Stops reading past the limit, so a file that grows
 * while it is read is refused too.
 */
export function readBoundedFile(path: string, max = MAX_SYNC_FILE_BYTES): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new RefusedFile(`it is ${kindOf(stats)}, not a regular file: give the path of a .csv or .json file`);
    const tooLarge = () => new RefusedFile(`it is larger than ${max / (1024 * 1024)} MiB (${max} bytes), the most a sync reads: split it into several files`);
    if (stats.size > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      length += read;
      if (length > max) throw tooLarge();
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads a sync file: CSV or JSON by extension (`.csv`, `.json`), else by its first character. */
export function readSyncFile(path: string, read: (path: string) => string = (p) => readBoundedFile(p)): ReadResult {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      error instanceof RefusedFile
        ? error.message
        : code === 'ENOENT'
          ? 'there is no such file'
          : code === 'EISDIR'
            ? 'it is a folder'
            : code === 'EACCES'
              ? 'permission denied'
              : (error as Error).message;
    return { ok: false, problems: [{ problem: `the file cannot be read: ${why}` }] };
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '')
    return {
      ok: false,
      problems: [{ problem: 'the file is empty: it needs a header row (email,name,phone,role,remove) and one row per person, or a JSON array' }],
    };
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
    return {
      ok: false,
      problems: [
        { problem: 'the file must hold a JSON array of objects, e.g. [{"email": "alex@example.com", "name": "Alex Morgan", "phone": "+14155550123"}]' },
      ],
    };
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
