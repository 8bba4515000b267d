/**
 * The CLI's exit codes as data, which the code reads (exit-codes.ts) and the CLI's interface
 * report lists (scripts/api/surfaces/cli.ts): the number each name stands for, the code each kind
 * of failure gets, and which wins among several. Pipelines branch on these numbers, so a change
 * here is a change they see. Only data and types: the errors' module (cli-errors.ts) names the
 * codes without a cycle.
 */
import type { PagerlyErrorCode } from '../shared/errors.ts';

/**
 * The exit codes scripts can rely on. 75 is sysexits' EX_TEMPFAIL: a pipeline retries on
 * 75 and on nothing else, so 75 is given only where a retry can neither do the work twice
 * nor fail the same way (the error model's `retryable`). 78 is sysexits' EX_CONFIG. 5 is
 * this project's own: the outcome is unknown, the request may have been carried out.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  authentication: 3,
  permission: 4,
  mayHaveApplied: 5,
  transient: 75,
  configuration: 78,
  /** 128 + SIGINT, as shells report a command stopped by Ctrl-C. */
  interrupted: 130,
  /** 128 + SIGTERM: a second SIGTERM ended a draining server or watch at once (shared/shutdown/drain.ts). */
  terminated: 143,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type ExitName = keyof typeof EXIT;

/** The code a sync that failed row by row gets: the most severe of its rows' codes, by SEVERITY. */
export const FROM_ROWS = 'the most severe of its rows';

/**
 * What one kind of failure exits with: `exit`, unless a case below holds, checked in this order.
 * Only the cases a kind can meet are set.
 */
export interface ExitRule {
  readonly exit: ExitName | typeof FROM_ROWS;
  /** The request may have been carried out (a create met a 500, 502 or 504, a time-out or a reset after it left). */
  readonly ifMayHaveApplied?: ExitName;
  /** Refused before anything was sent (a bad e-mail, a bad base URL), rather than by the service. */
  readonly ifRefusedBeforeSending?: ExitName;
  /** Sending it again could do the work twice or fail the same way (`retryable` false). */
  readonly ifNotRetryable?: ExitName;
}

/** A failure of a call that was sent: it may have been done, and then it is 5 whatever its kind. */
const sent = (exit: ExitName, more: Omit<ExitRule, 'exit' | 'ifMayHaveApplied'> = {}): ExitRule => ({ exit, ifMayHaveApplied: 'mayHaveApplied', ...more });

/**
 * The exit code each kind of failure gets, by the `code` its error has (and `--json` prints):
 * the one table `exitCodeFor` reads, and the CLI's interface report lists (`error/<code>`), so a
 * change here is a change pipelines see. The API module's codes (shared/errors.ts) must all be
 * here, and every code of the command line's own errors (cli-errors.ts) is one of these.
 */
export const EXIT_BY_ERROR = {
  authentication: sent('authentication'),
  permission: sent('permission'),
  not_found: sent('failure'),
  invalid_input: sent('failure', { ifRefusedBeforeSending: 'usage' }),
  rate_limited: sent('transient', { ifNotRetryable: 'failure' }),
  server: sent('transient', { ifNotRetryable: 'failure' }),
  network: sent('transient', { ifNotRetryable: 'failure' }),
  timeout: sent('transient', { ifNotRetryable: 'failure' }),
  invalid_response: sent('failure'),
  request: sent('failure'),
  redirect: sent('configuration'),
  host_not_found: sent('configuration'),
  certificate: sent('configuration'),
  proxy: sent('configuration'),
  // The command line's own.
  usage: { exit: 'usage' },
  invalid_file: { exit: 'usage' },
  interrupted: { exit: 'interrupted' },
  sync_failed: { exit: FROM_ROWS },
  state_locked: { exit: 'transient' },
  state_lock_lost: { exit: 'failure' },
  /** An import that read its source but wrote no file: the old file is as it was. */
  not_written: { exit: 'failure' },
  /** Anything else (a bug): said as `unexpected`. */
  unexpected: { exit: 'failure' },
} as const satisfies Record<PagerlyErrorCode, ExitRule> & Record<string, ExitRule>;

/** Every `code` an error of the CLI may have (`--json` prints it as `error.code`). */
export type AnyErrorCode = keyof typeof EXIT_BY_ERROR;
/** The codes of the command line's own errors (cli-errors.ts), beside the API module's. */
export type CliErrorCode = Exclude<AnyErrorCode, PagerlyErrorCode>;

/**
 * Codes only one command raises, each with that command. Its `--json` error document lists
 * them and no other command's does, so the interface report places them with the command: a new
 * command's own code widens no existing command's output.
 */
export const COMMAND_ONLY_CODES = {
  not_written: 'directory import',
} as const satisfies Partial<Record<CliErrorCode, string>>;
export type CommandOnlyCode = keyof typeof COMMAND_ONLY_CODES;
/** The codes any command's `--json` error may have. */
export type ErrorCode = Exclude<AnyErrorCode, CommandOnlyCode>;
/** The codes one command's `--json` error may have: every command's, and its own. */
export type CommandErrorCode<Command extends string> =
  | ErrorCode
  | { [C in CommandOnlyCode]: (typeof COMMAND_ONLY_CODES)[C] extends Command ? C : never }[CommandOnlyCode];

/**
 * Several failures (a sync): the most severe class wins, in the order 3, 4, 78, 5, 75, 1. An
 * unknown outcome outranks 75: one row that may have been done makes a blind rerun unsafe. The
 * interface report lists this order: which code a failed sync exits with depends on it.
 */
export const SEVERITY_ORDER: readonly ExitName[] = ['authentication', 'permission', 'configuration', 'mayHaveApplied', 'transient', 'failure'];
