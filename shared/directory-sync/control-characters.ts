import type { RowProblem } from './row-problem.ts';

/**
 * C0 controls but tab and line breaks, DEL and C1 controls: what a misread encoding leaves,
 * never typed in a spreadsheet's cell. A tab or a line break (Alt+Enter in Excel) is text.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The most places told, as for replaced characters: a misread file holds one on nearly every row. */
const MOST = 20;

const hex = (character: string) => `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Where a value holds a control character (the cell already trimmed): a NUL from UTF-16 read
 * as bytes, a C1 control from a file that is neither UTF-8 nor Windows-1252 (Mac Roman,
 * Shift-JIS) read as Windows-1252. The schemas take any text
 * as a name, so without this such a name would be written to the directory as it is, for
 * good. A file with any is refused before anything is sent, naming the row, column and code.
 */
export function controlCharacters(
  rows: readonly { readonly row: number; readonly values: Readonly<Record<string, unknown>> }[],
  encodingOption: string,
): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const { row, values } of rows) {
    for (const [field, value] of Object.entries(values)) {
      if (typeof value !== 'string') continue;
      const text = value.trim();
      const found = CONTROL.exec(text);
      if (!found) continue;
      problems.push({
        row,
        field,
        problem: `holds the control character ${hex(found[0])} at character ${found.index + 1}: no name, phone or role holds one; if the file was saved in another encoding, name it with ${encodingOption} (e.g. utf-16le, macintosh, shift_jis)`,
      });
    }
  }
  if (problems.length <= MOST) return problems;
  return [...problems.slice(0, MOST), { problem: `${problems.length - MOST} more values hold a control character` }];
}
