import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import { isSeq, parseDocument, visit } from 'yaml';
import { controlCharacters } from './control-characters.ts';
import { decodeText, type FoundBy } from './decode-text.ts';
import { ambiguityProblems } from './encoding-ambiguity.ts';
import { replacedCharacters } from './replaced-characters.ts';
import { unguardFormula } from './spreadsheet-formula.ts';
import type { RowProblem } from './row-problem.ts';

export const SYNC_FIELDS = ['email', 'name', 'phone', 'role', 'remove'] as const;
export type SyncField = (typeof SYNC_FIELDS)[number];

export type FileFormat = 'csv' | 'json' | 'yaml';

/** The separators a CSV file may use, found from its header row. */
export const SEPARATORS = { ',': 'comma', ';': 'semicolon', '\t': 'tab' } as const;
export type Separator = keyof typeof SEPARATORS;

/** One row as it was in the file: values not checked yet, an absent field left out. */
export interface RawRow {
  /** CSV: the line it starts on (the header is row 1); JSON and YAML: its place in the list, from 1. */
  readonly row: number;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * A file that could be read as rows, with the problems of single rows found on the way
 * (they are reported together with the validation's); or one that could not be read at all.
 */
export type ReadResult =
  | {
      ok: true;
      format: FileFormat;
      columns: readonly string[] | undefined;
      rows: readonly RawRow[];
      problems: RowProblem[];
      /** The encoding the file was read in (decode-text.ts), by its WHATWG name. */
      encoding: string;
      /** How: a BOM, valid UTF-8, UTF-16's NULs, detected from the bytes, or given. */
      foundBy: FoundBy;
      /** Detected: how sure the scorer is of that code page (0-100). */
      confidence?: number;
      /** CSV: the separator found from the header row. */
      separator?: Separator;
      /** One line the plan shows when the file is not UTF-8: how it was read. */
      note?: string;
    }
  | { ok: false; problems: RowProblem[] };

export interface ReadOptions {
  /** The encoding to read the file in, overriding the guess (`--encoding`). */
  readonly encoding?: string | undefined;
  /** How the surface names the way to give the encoding, for the wording: `--encoding` (the CLI's flag) by default. */
  readonly encodingOption?: string;
}

/** What reads a file: its bytes, or text already decoded. */
export type FileReader = (path: string) => Uint8Array | string;

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
export function readBoundedFile(path: string, max = MAX_SYNC_FILE_BYTES): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new RefusedFile(`it is ${kindOf(stats)}, not a regular file: give the path of a .csv, .json or .yaml file`);
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
    return Buffer.concat(chunks, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a sync file: CSV, JSON or YAML by extension (`.csv`, `.json`, `.yaml`, `.yml`), else
 * JSON when it starts with `[` or `{`, else CSV. Every format is decoded by the same rules
 * (decode-text.ts); a file whose code page cannot be told is refused, showing how each code
 * page reads its first differing names (encoding-ambiguity.ts), and a file holding a character
 * a decoder replaced is refused, naming where (replaced-characters.ts): nothing of it is sent.
 */
export function readSyncFile(path: string, read: FileReader = (p) => readBoundedFile(p), options: ReadOptions = {}): ReadResult {
  let content: Uint8Array | string;
  try {
    content = read(path);
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
  const encodingOption = options.encodingOption ?? '--encoding';
  const decoded =
    typeof content === 'string'
      ? ({ ok: true, text: content, encoding: 'utf-8', foundBy: 'utf-8' } as const)
      : decodeText(content, options.encoding, encodingOption);
  if (decoded.ok === 'ambiguous') {
    const rowsOf = (text: string) => {
      const format = formatOf(path, text);
      const parsed = format === 'json' ? readJson(text) : format === 'yaml' ? readYaml(text) : readCsv(text);
      return parsed.ok ? parsed.rows : undefined;
    };
    return { ok: false, problems: ambiguityProblems(decoded.readings, decoded.why, rowsOf, encodingOption, decoded.line) };
  }
  if (!decoded.ok) return { ok: false, problems: [{ problem: decoded.problem }] };
  const text = decoded.text.replace(/^\uFEFF/, '');
  if (text.trim() === '')
    return {
      ok: false,
      problems: [{ problem: 'the file is empty: it needs a header row (email,name,phone,role,remove) and one row per person, or a JSON or YAML list' }],
    };
  const format = formatOf(path, text);
  const result = format === 'json' ? readJson(text) : format === 'yaml' ? readYaml(text) : readCsv(text);
  const replaced = replacedCharacters(text, result.ok ? result.rows : [], encodingOption);
  if (!result.ok) return replaced.length > 0 ? { ok: false, problems: [...replaced, ...result.problems] } : result;
  // A value with a replaced character is told once, as that: the control characters of the rest.
  const withReplaced = new Set(replaced.map((p) => `${p.row}:${p.field}`));
  const controls = controlCharacters(result.rows, encodingOption).filter((p) => !withReplaced.has(`${p.row}:${p.field}`));
  return {
    ...result,
    problems: [...replaced, ...controls, ...result.problems],
    encoding: decoded.encoding,
    foundBy: decoded.foundBy,
    ...('confidence' in decoded && decoded.confidence !== undefined ? { confidence: decoded.confidence } : {}),
    ...('note' in decoded && decoded.note ? { note: decoded.note } : {}),
  };
}

function formatOf(path: string, text: string): FileFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  if (extension === '.csv') return 'csv';
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

type Read =
  | { ok: true; format: FileFormat; columns: readonly string[] | undefined; rows: RawRow[]; problems: RowProblem[]; separator?: Separator }
  | { ok: false; problems: RowProblem[] };

/** A JSON or YAML list: each item an object of one person, numbered from 1. */
function rowsOfList(list: unknown[], format: 'json' | 'yaml'): Read {
  if (list.length === 0) return { ok: false, problems: [{ problem: `the file has no rows: the ${format === 'json' ? 'array' : 'list'} is empty` }] };
  const problems: RowProblem[] = [];
  const rows: RawRow[] = [];
  list.forEach((item: unknown, index) => {
    const row = index + 1;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ row, problem: 'must be an object with the keys email, name, phone, role, remove' });
      return;
    }
    rows.push({ row, values: item as Record<string, unknown> });
  });
  return { ok: true, format, columns: undefined, rows, problems };
}

/**
 * YAML, read with the failsafe schema: every value is text, as in a CSV cell, so a phone
 * `+14155550123` stays text (YAML 1.2 would read a number) and `remove: yes` means what it
 * says; a plain `~` or `null` is an empty value. Aliases are bounded by the library (an alias
 * bomb is refused), and a key given twice is an error.
 */
function readYaml(text: string): Read {
  const document = parseDocument(text, { schema: 'failsafe', uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) return { ok: false, problems: [{ problem: `the file is not valid YAML: ${document.errors[0]!.message}` }] };
  if (!isSeq(document.contents)) {
    return {
      ok: false,
      problems: [
        {
          problem:
            'the file must hold a YAML list of people, one item per person starting with "- ", e.g. "- email: alex@example.com" with "  name: Alex Morgan" on the next line',
        },
      ],
    };
  }
  visit(document, {
    Scalar(_key, node) {
      if (node.type === 'PLAIN' && /^(?:~|null|Null|NULL)$/.test(String(node.value))) node.value = '';
    },
  });
  let list: unknown;
  try {
    list = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, problems: [{ problem: `the file is not valid YAML: ${(error as Error).message}` }] };
  }
  return rowsOfList(list as unknown[], 'yaml');
}

function readJson(text: string): Read {
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
  return rowsOfList(parsed, 'json');
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * The separator of a CSV file, from its header row (the first line with text): the one of
 * comma, semicolon and tab found most often outside quotes, a comma on a tie or with none.
 * Excel writes semicolons wherever the decimal separator is a comma, and tabs as "Unicode text".
 */
export function separatorOf(text: string): Separator {
  const header = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const counts: Record<Separator, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const character of header) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && character in counts) counts[character as Separator] += 1;
  }
  return (Object.keys(counts) as Separator[]).reduce((best, next) => (counts[next] > counts[best] ? next : best), ',');
}

function readCsv(text: string): Read {
  const separator = separatorOf(text);
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: separator,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
    }) as unknown as ParsedRecord[];
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
    // A spreadsheet's "this is text" apostrophe before a formula-like cell is not part of the value (spreadsheet-formula.ts).
    rows.push({ row, values: Object.fromEntries(columns.map((name, i) => [name, unguardFormula(record[i] ?? '')])) });
  }
  return { ok: true, format: 'csv', columns, rows, problems, separator };
}
