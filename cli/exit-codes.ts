import { isPagerlyError } from '../shared/errors.ts';
import { CliError } from './cli-errors.ts';

/**
 * The exit codes scripts can rely on. 75 is sysexits' EX_TEMPFAIL: a pipeline retries on
 * 75 and on nothing else.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  authentication: 3,
  permission: 4,
  transient: 75,
  /** sysexits' EX_PROTOCOL: a success answer without what it must carry (a create without an id). */
  noId: 76,
  /** 128 + SIGINT, as shells report a command stopped by Ctrl-C. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** For `--help` and the README: one line per code. */
export const exitCodeTable: readonly { code: ExitCode; meaning: string }[] = [
  { code: EXIT.ok, meaning: 'done' },
  { code: EXIT.failure, meaning: 'failed for another reason: not found, input refused, an invalid answer' },
  { code: EXIT.usage, meaning: 'bad usage or a bad input file: nothing was sent' },
  { code: EXIT.authentication, meaning: 'the API key is missing or was refused' },
  { code: EXIT.permission, meaning: 'not allowed: not an org admin\'s key, or the owner\'s entry is protected' },
  { code: EXIT.transient, meaning: 'temporary (rate limited, 5xx, network, time-out): safe to retry' },
  { code: EXIT.noId, meaning: 'the service said it created the incident but gave no id: check before creating it again' },
  { code: EXIT.interrupted, meaning: 'interrupted (Ctrl-C); a sync first says what was applied and what was not' },
];

export const exitCodeHelp = (): string =>
  `Exit codes:\n${exitCodeTable.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;

/** The exit code one failure stands for. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode as ExitCode;
  if (!isPagerlyError(error)) return EXIT.failure;
  switch (error.code) {
    case 'authentication':
      return EXIT.authentication;
    case 'permission':
      return EXIT.permission;
    case 'rate_limited':
    case 'server':
    case 'network':
    case 'timeout':
      return EXIT.transient;
    case 'invalid_input':
      // Refused before sending (a bad e-mail, a bad base URL) is bad usage; refused by the service is a failure.
      return 'source' in error && error.source === 'input' ? EXIT.usage : EXIT.failure;
    default:
      return EXIT.failure;
  }
}

/** Several failures (a sync): the most severe class wins, in the order 3, 4, 75, 1. */
const SEVERITY: readonly ExitCode[] = [EXIT.authentication, EXIT.permission, EXIT.transient, EXIT.failure];

export function mostSevereExitCode(errors: readonly unknown[]): ExitCode {
  if (errors.length === 0) return EXIT.ok;
  const codes = new Set(errors.map(exitCodeFor));
  return SEVERITY.find((code) => codes.has(code)) ?? EXIT.failure;
}
