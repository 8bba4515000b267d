import type { RowProblem } from '../shared/directory-sync/row-problem.ts';

/**
 * Failures of the command line itself, next to the API module's `PagerlyError`s: bad usage,
 * bad input files, a sync in which some changes failed. Same `code` / `retryable` shape, so
 * output treats both alike.
 */
export abstract class CliError extends Error {
  abstract readonly code: string;
  abstract readonly exitCode: number;
  readonly retryable: boolean = false;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A flag, argument or setting that cannot be used; nothing was sent. */
export class UsageError extends CliError {
  readonly code = 'usage';
  readonly exitCode = 2;
}

/** Ctrl-C (SIGINT): the command stopped; a sync has printed what was applied and what was not. */
export class InterruptedError extends CliError {
  readonly code = 'interrupted';
  readonly exitCode = 130;
}

/** A sync file with problems: all of them, found before anything was sent. */
export class InvalidFileError extends CliError {
  readonly code = 'invalid_file';
  readonly exitCode = 2;
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
  /** By the severity rule: 3, 4, 75, then 1. */
  readonly exitCode: number;
  override readonly retryable: boolean;

  constructor(message: string, exitCode: number, retryable: boolean) {
    super(message);
    this.exitCode = exitCode;
    this.retryable = retryable;
  }
}

/** An import that read its source but wrote no file (nobody to write, or the file could not be written): the old file is as it was. */
export class NotWrittenError extends CliError {
  readonly code = 'not_written';
  readonly exitCode = 1;
}
