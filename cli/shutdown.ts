import { createDrain, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, type Drain, MAX_SHUTDOWN_TIMEOUT_SECONDS } from '../shared/shutdown/drain.ts';
import { Option } from 'commander';
import { UsageError } from './cli-errors.ts';
import type { Context } from './context.ts';

/**
 * The flag of every long-running command: how long a stop waits for the work in flight. Its
 * default is commander's, so help says it and the interface report lists it.
 */
export const shutdownOption = () =>
  new Option(
    '--shutdown-timeout <seconds>',
    'on SIGTERM or Ctrl-C, how long the work in flight may take to finish before it is cut (keep it under the 30 s a container manager waits before SIGKILL)',
  )
    .argParser(shutdownSeconds)
    .default(DEFAULT_SHUTDOWN_TIMEOUT_SECONDS);

export function shutdownSeconds(value: string): number {
  const seconds = Number(value);
  if (!value.trim() || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SHUTDOWN_TIMEOUT_SECONDS) {
    throw new UsageError(`--shutdown-timeout must be a number of seconds from 0 to ${MAX_SHUTDOWN_TIMEOUT_SECONDS}, e.g. 25`);
  }
  return seconds;
}

/**
 * The drain of a command that runs until stopped (shared/shutdown/drain.ts): SIGTERM, or
 * Ctrl-C, which the launcher (bin/pagerly.js) turns into `ctx.signal` and whose second press
 * it ends with exit 130 itself. Notes go to stderr.
 */
export function commandDrain(ctx: Context, command: string, what: string, seconds: number | undefined): Drain {
  ctx.stopsCleanlyOnInterrupt();
  return createDrain({
    deadlineMs: Math.round((seconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS) * 1000),
    signals: ['SIGTERM'],
    stopWhen: ctx.signal,
    note: (text) => ctx.out.note(`${command}: ${text}`),
    what,
  });
}
