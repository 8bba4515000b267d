import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import type { LogEntry } from '../../make-app/interpreter/runner/execute.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';

/** The generated app, run against `origin` (the sandbox), or against the service's own origin (recordings). */
export function runnerFor(origin?: string, log: LogEntry[] = []) {
  return makeRunner(appFromFiles(generateMakeApp()), { ...(origin ? { origin: { from: DEFAULT_BASE_URL, to: origin } } : {}), log, timeoutMs: 5_000 });
}

/** The Make error a call ends in (fails the test if it succeeded or threw something else). */
export async function makeErrorOf(call: Promise<unknown>): Promise<MakeError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MakeError) return error;
    throw error;
  }
  throw new Error('expected a Make error, but the call succeeded');
}
