import { encodingTitle } from './decode-text.ts';
import type { RowProblem } from './row-problem.ts';

/** The readings shown side by side, and the rows of them: enough to choose, short enough to read. */
const MOST_READINGS = 6;
const MOST_ROWS = 3;
const MOST_CHARACTERS = 60;

interface Shown {
  readonly encoding: string;
  readonly text: string;
}
type Rows = readonly { readonly row: number; readonly values: Readonly<Record<string, unknown>> }[];

/**
 * A value of the file as one code page reads it, quoted, for a terminal, a log or a comment: the
 * bytes are the file's, so a control, format or bidi character is written as its escape.
 */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  const short = [...text].length > MOST_CHARACTERS ? `${[...text].slice(0, MOST_CHARACTERS).join('')}…` : text;
  return `"${short.replace(/[\p{Cc}\p{Cf}\u2028\u2029"\\]/gu, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}

const each = (readings: readonly Shown[], valueIn: (reading: Shown) => unknown) =>
  readings.map((reading) => `${quoted(valueIn(reading))} in ${reading.encoding}`).join(', ');

/** The first rows whose values differ between the readings, each with the first field that differs (the name first). */
function differingRows(readings: readonly Shown[], rows: readonly Rows[]): RowProblem[] {
  const problems: RowProblem[] = [];
  const count = Math.min(...rows.map((r) => r.length));
  for (let i = 0; i < count && problems.length < MOST_ROWS; i += 1) {
    const values = rows.map((r) => r[i]!.values);
    const fields = [...new Set(['name', ...values.flatMap((v) => Object.keys(v))])];
    const field = fields.find((f) => new Set(values.map((v) => JSON.stringify(v[f] ?? null))).size > 1);
    if (field === undefined) continue;
    problems.push({ row: rows[0]![i]!.row, field, problem: `reads ${each(readings, (reading) => values[readings.indexOf(reading)]![field])}` });
  }
  return problems;
}

/** The first lines that differ, where the readings do not parse into the same rows. */
function differingLines(readings: readonly Shown[]): RowProblem[] {
  const lines = readings.map((r) => r.text.split(/\r?\n/));
  const problems: RowProblem[] = [];
  for (let i = 0; i < Math.max(...lines.map((l) => l.length)) && problems.length < MOST_ROWS; i += 1) {
    if (new Set(lines.map((l) => l[i] ?? '')).size === 1) continue;
    problems.push({ problem: `line ${i + 1} reads ${each(readings, (reading) => lines[readings.indexOf(reading)]![i] ?? '')}` });
  }
  return problems;
}

/**
 * Why a file's code page was not taken (detect-encoding.ts): no reading scores clearly best as
 * names (the close ones are shown side by side), or no reading is plausible as names, or the
 * best is no likelier as names than as random letters; or a line, read alone, is clearly of
 * another code page than the rest (the file mixes two).
 */
export type Undecided = 'names-differ' | 'no-names' | 'mixed';

/**
 * The refusal of a file whose code page cannot be told (detect-encoding.ts): what to pass, and
 * the first names that differ as each close code page reads them, so the person who knows the
 * file can say which is right.
 */
export function ambiguityProblems(
  readings: readonly Shown[],
  why: Undecided,
  rowsOf: (text: string) => Rows | undefined,
  encodingOption: string,
  line?: number,
): RowProblem[] {
  const shown = readings.slice(0, MOST_READINGS);
  const choices = shown.map((r) => r.encoding).join(', ');
  const resave = 're-save the file as UTF-8 (in Excel: "CSV UTF-8")';
  if (why === 'mixed') {
    const [file, other] = shown as [Shown, Shown];
    return [
      {
        problem: `the file is not UTF-8, and it is not all in one code page: it reads as names in ${encodingTitle(file.encoding)}, but line ${line} reads clearly as ${encodingTitle(other.encoding)} (a file put together from two exports?). No one encoding reads it all; export each part again as UTF-8 (in Excel: "CSV UTF-8"), or fix that part`,
      },
      { problem: `line ${line} reads ${each([file, other], (reading) => reading.text)}` },
    ];
  }
  const head: RowProblem =
    why === 'names-differ'
      ? {
          problem: `the file is not UTF-8, and which code page it was saved in cannot be told from its bytes: ${readings.length} code pages read it as names about equally well, and the names differ (${shown.map((r) => encodingTitle(r.encoding)).join(', ')}${readings.length > shown.length ? ', ...' : ''}). Name the one whose names are right with ${encodingOption} (${choices}${readings.length > shown.length ? ', ...' : ''}), or ${resave}`,
        }
      : {
          problem: `the file is not UTF-8, and no code page this reader tells apart reads it as names (each reading puts symbols, control characters or two scripts in a word, or reads no likelier as names than as letters drawn at random). Name its encoding with ${encodingOption}, or ${resave}`,
        };
  if (shown.length < 2) return [head];
  const rows = shown.map((r) => rowsOf(r.text));
  const parsed = rows.every((r) => r !== undefined) && new Set(rows.map((r) => r.length)).size === 1;
  const differing = parsed ? differingRows(shown, rows) : [];
  return [head, ...(differing.length > 0 ? differing : differingLines(shown))];
}
