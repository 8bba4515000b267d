/** One problem of a directory sync file, found before anything was sent. */
export interface RowProblem {
  /** Row of the file (CSV: its line, the header being row 1; JSON: the n-th object); none for the whole file. */
  readonly row?: number | undefined;
  readonly field?: string | undefined;
  readonly problem: string;
}

/** `row 3: email must be ...`, or the problem alone for the whole file. */
export function describeRowProblem({ row, field, problem }: RowProblem): string {
  return `${row === undefined ? '' : `row ${row}: `}${field ? `${field} ` : ''}${problem}`;
}
