import { isPagerlyError } from '../shared/errors.ts';
import { CliError } from './cli-errors.ts';

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

/** For `--help` and the README: one line per code. */
export const exitCodeTable: readonly { code: ExitCode; meaning: string }[] = [
  { code: EXIT.ok, meaning: 'done' },
  { code: EXIT.failure, meaning: 'failed for another reason: not found, input refused, an invalid answer' },
  { code: EXIT.usage, meaning: 'bad usage or a bad input file: nothing was sent' },
  { code: EXIT.authentication, meaning: 'the API key is missing or was refused' },
  { code: EXIT.permission, meaning: "not allowed: not an org admin's key, or the owner's entry is protected" },
  {
    code: EXIT.mayHaveApplied,
    meaning: 'unknown outcome: a create was sent and met a 500/502/504, a time-out or a reset; it may have been done, check before retrying',
  },
  {
    code: EXIT.transient,
    meaning: "temporary (rate limited, 503, a 5xx or time-out of a read, connection refused, another watch holding the state file's lock): safe to retry",
  },
  {
    code: EXIT.configuration,
    meaning:
      "configuration: the base URL's host does not exist (DNS), the service redirects to another host, or its TLS certificate could not be verified (NODE_EXTRA_CA_CERTS), or the proxy in HTTPS_PROXY/HTTP_PROXY refused the request (407: credentials); nothing was sent",
  },
  {
    code: EXIT.interrupted,
    meaning: 'interrupted (Ctrl-C); a sync first says what was applied and what was not; a second Ctrl-C stops mcp or on-call watch at once',
  },
  {
    code: EXIT.terminated,
    meaning: 'a second SIGTERM stopped mcp or on-call watch at once, cutting what was in flight (the first one lets it finish, then exit 0)',
  },
];

export const exitCodeHelp = (): string => `Exit codes:\n${exitCodeTable.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

/** The exit code one failure stands for. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode as ExitCode;
  if (!isPagerlyError(error)) return EXIT.failure;
  if (error.mayHaveApplied) return EXIT.mayHaveApplied;
  switch (error.code) {
    case 'authentication':
      return EXIT.authentication;
    case 'permission':
      return EXIT.permission;
    case 'host_not_found':
    case 'redirect':
    case 'certificate':
    case 'proxy':
      return EXIT.configuration;
    case 'rate_limited':
    case 'server':
    case 'network':
    case 'timeout':
      return error.retryable ? EXIT.transient : EXIT.failure;
    case 'invalid_input':
      // Refused before sending (a bad e-mail, a bad base URL) is bad usage; refused by the service is a failure.
      return 'source' in error && error.source === 'input' ? EXIT.usage : EXIT.failure;
    default:
      return EXIT.failure;
  }
}

/**
 * Several failures (a sync): the most severe class wins, in the order 3, 4, 78, 5, 75, 1. An
 * unknown outcome outranks 75: one row that may have been done makes a blind rerun unsafe.
 */
const SEVERITY: readonly ExitCode[] = [EXIT.authentication, EXIT.permission, EXIT.configuration, EXIT.mayHaveApplied, EXIT.transient, EXIT.failure];

export function mostSevereExitCode(errors: readonly unknown[]): ExitCode {
  if (errors.length === 0) return EXIT.ok;
  const codes = new Set(errors.map(exitCodeFor));
  return SEVERITY.find((code) => codes.has(code)) ?? EXIT.failure;
}
