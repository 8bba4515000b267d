import type { RowProblem } from './row-problem.ts';

/** U+FFFD: what a decoder puts where it could not read a character. */
const REPLACEMENT = '\uFFFD';

/** The most places told: a wrongly decoded file holds one on nearly every row. */
const MOST = 20;

const fix = (encodingOption: string) =>
  `re-save the file as UTF-8 (in Excel: "CSV UTF-8"), or name its encoding with ${encodingOption} (e.g. windows-1252, utf-16le)`;

/**
 * Where the text holds U+FFFD, a character its decoder replaced: each such value (row and
 * column) or, where no value of a row holds it (a header or a key), the line and column of
 * the text. A file with any is refused before anything is sent: a name with it would be
 * written to the directory wrong, for good.
 */
export function replacedCharacters(
  text: string,
  rows: readonly { readonly row: number; readonly values: Readonly<Record<string, unknown>> }[],
  encodingOption: string,
): RowProblem[] {
  if (!text.includes(REPLACEMENT)) return [];
  const problems: RowProblem[] = [];
  for (const { row, values } of rows) {
    for (const [field, value] of Object.entries(values)) {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      const at = shown?.indexOf(REPLACEMENT) ?? -1;
      if (at < 0) continue;
      problems.push({
        row,
        field,
        problem: `holds "${REPLACEMENT}" (U+FFFD) at character ${at + 1}, a character the file's encoding did not give ("${shown!.slice(0, 60)}"): ${fix(encodingOption)}`,
      });
    }
  }
  if (problems.length === 0) {
    const at = text.indexOf(REPLACEMENT);
    const before = text.slice(0, at).split('\n');
    problems.push({
      problem: `line ${before.length}, column ${before.at(-1)!.length + 1} holds "${REPLACEMENT}" (U+FFFD), a character the file's encoding did not give: ${fix(encodingOption)}`,
    });
  }
  if (problems.length <= MOST) return problems;
  return [...problems.slice(0, MOST), { problem: `${problems.length - MOST} more values hold "${REPLACEMENT}" (U+FFFD): ${fix(encodingOption)}` }];
}
