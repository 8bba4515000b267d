import type { RowProblem } from '../shared/directory-sync/row-problem.ts';
import type { CliErrorCode } from './exit-table.ts';

/**
 * Failures of the command line itself, next to the API module's `PagerlyError`s: bad usage,
 * bad input files, a sync in which some changes failed. Same `code` / `retryable` shape, so
 * output treats both alike; the exit code each `code` gets is in exit-codes.ts (EXIT_BY_ERROR).
 */
export abstract class CliError extends Error {
  abstract readonly code: CliErrorCode;
  readonly retryable: boolean = false;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A flag, argument or setting that cannot be used; nothing was sent. */
export class UsageError extends CliError {
  readonly code = 'usage';
}

/** Ctrl-C (SIGINT): the command stopped; a sync has printed what was applied and what was not. */
export class InterruptedError extends CliError {
  readonly code = 'interrupted';
}

/** A sync file with problems: all of them, found before anything was sent. */
export class InvalidFileError extends CliError {
  readonly code = 'invalid_file';
  readonly file: string;
  readonly problems: readonly RowProblem[];

  constructor(file: string, problems: readonly RowProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`${file} has ${count}; nothing was changed.`);
    this.file = file;
    this.problems = problems;
  }
}

/** A sync that ran but where some changes failed; the report lists them. */
export class SyncFailedError extends CliError {
  readonly code = 'sync_failed';
  /** The most severe of the failed rows' codes (exit-codes.ts SEVERITY_ORDER): what the sync exits with. */
  readonly rowsExitCode: number;
  override readonly retryable: boolean;

  constructor(message: string, rowsExitCode: number, retryable: boolean) {
    super(message);
    this.rowsExitCode = rowsExitCode;
    this.retryable = retryable;
  }
}

/** An import that read its source but wrote no file (nobody to write, or the file could not be written): the old file is as it was. */
export class NotWrittenError extends CliError {
  readonly code = 'not_written';
}
