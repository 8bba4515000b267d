import { InvalidInputError, isPagerlyError } from '../shared/errors.ts';
import { CliError, SyncFailedError } from './cli-errors.ts';
import {
  type AnyErrorCode,
  COMMAND_ONLY_CODES,
  type ErrorCode,
  EXIT,
  EXIT_BY_ERROR,
  type ExitCode,
  type ExitRule,
  FROM_ROWS,
  SEVERITY_ORDER,
} from './exit-table.ts';

export {
  type CliErrorCode,
  type ErrorCode,
  EXIT,
  EXIT_BY_ERROR,
  type ExitCode,
  type ExitName,
  type ExitRule,
  FROM_ROWS,
  SEVERITY_ORDER,
} from './exit-table.ts';

/** For `--help` and the README: one line per code, and the few words each command's own help ends with. */
export const exitCodeTable: readonly { code: ExitCode; short: string; meaning: string }[] = [
  { code: EXIT.ok, short: 'ok', meaning: 'done' },
  { code: EXIT.failure, short: 'failed', meaning: 'failed for another reason: not found, input refused, an invalid answer' },
  { code: EXIT.usage, short: 'bad usage or input (nothing sent)', meaning: 'bad usage or a bad input file: nothing was sent' },
  { code: EXIT.authentication, short: 'key missing or refused', meaning: 'the API key is missing or was refused' },
  { code: EXIT.permission, short: 'not allowed', meaning: "not allowed: not an org admin's key, or the owner's entry is protected" },
  {
    code: EXIT.mayHaveApplied,
    short: 'may have been done (check before retrying)',
    meaning: 'unknown outcome: a create was sent and met a 500/502/504, a time-out or a reset; it may have been done, check before retrying',
  },
  {
    code: EXIT.transient,
    short: 'temporary (safe to retry)',
    meaning: "temporary (rate limited, 503, a 5xx or time-out of a read, connection refused, another watch holding the state file's lock): safe to retry",
  },
  {
    code: EXIT.configuration,
    short: 'bad base URL (unknown host or redirected elsewhere)',
    meaning:
      "configuration: the base URL's host does not exist (DNS), the service redirects to another host, or its TLS certificate could not be verified (NODE_EXTRA_CA_CERTS), or the proxy in HTTPS_PROXY/HTTP_PROXY refused the request (407: credentials); nothing was sent",
  },
  {
    code: EXIT.interrupted,
    short: 'interrupted',
    meaning: 'interrupted (Ctrl-C); a sync first says what was applied and what was not; a second Ctrl-C stops mcp or on-call watch at once',
  },
  {
    code: EXIT.terminated,
    short: 'terminated',
    meaning: 'a second SIGTERM stopped mcp or on-call watch at once, cutting what was in flight (the first one lets it finish, then exit 0)',
  },
];

export const exitCodeHelp = (): string => `Exit codes:\n${exitCodeTable.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

/** The one line each command's own help ends with. */
export const shortExitCodeHelp = (): string => `Exit codes: ${exitCodeTable.map(({ code, short }) => `${code} ${short}`).join(', ')}.`;

/** The code of a failure, as `--json` prints it. */
export function errorCodeOf(error: unknown): AnyErrorCode {
  if (error instanceof CliError || isPagerlyError(error)) return error.code;
  return 'unexpected';
}

/** The code of a failure where no command-only code can arise (exit-table.ts COMMAND_ONLY_CODES): one there is a bug, said as `unexpected`. */
export function commonErrorCodeOf(error: unknown): ErrorCode {
  const code = errorCodeOf(error);
  return code in COMMAND_ONLY_CODES ? 'unexpected' : (code as ErrorCode);
}

/** The exit code one failure stands for. */
export function exitCodeFor(error: unknown): ExitCode {
  const rule: ExitRule = EXIT_BY_ERROR[errorCodeOf(error)];
  if (rule.exit === FROM_ROWS) return error instanceof SyncFailedError ? (error.rowsExitCode as ExitCode) : EXIT.failure;
  if (rule.ifMayHaveApplied && isPagerlyError(error) && error.mayHaveApplied) return EXIT[rule.ifMayHaveApplied];
  if (rule.ifRefusedBeforeSending && error instanceof InvalidInputError && error.source === 'input') return EXIT[rule.ifRefusedBeforeSending];
  if (rule.ifNotRetryable && !(error as { retryable?: boolean }).retryable) return EXIT[rule.ifNotRetryable];
  return EXIT[rule.exit];
}

const SEVERITY: readonly ExitCode[] = SEVERITY_ORDER.map((name) => EXIT[name]);

/** Several failures (a sync): the most severe class wins, by SEVERITY_ORDER. */
export function mostSevereExitCode(errors: readonly unknown[]): ExitCode {
  if (errors.length === 0) return EXIT.ok;
  const codes = new Set(errors.map(exitCodeFor));
  return SEVERITY.find((code) => codes.has(code)) ?? EXIT.failure;
}
