import { createRequire } from 'node:module';
import App from '../../zapier-app/index.ts';

/**
 * The Zapier app (source) run by zapier-platform-core's own Lambda handler, as Zapier runs
 * it: with core's request log and its secret scrubbing (the app's errors opt out of core's
 * "What happened" trail, zapier-app/zapier-errors.ts). Every log
 * line core produces reaches `customLogger` (what `zapier invoke` shows, and what core would
 * stream to Zapier's log server), and with `printLogs` it is printed too.
 *
 * A test file that uses this must call `isolateZapierCore()` (test/support/zapier-core-isolation.ts):
 * the handler patches Node's http modules and `fetch` for the rest of the jest worker otherwise.
 */
const require = createRequire(import.meta.url);
// Exported by core at runtime but missing from its type declarations.
const { createAppHandler } = require('zapier-platform-core') as {
  createAppHandler: (app: object) => (event: object) => Promise<{ results: unknown }>;
};

export interface CoreLogLine {
  message: string;
  data: Record<string, unknown>;
}

/** `printLogs`: core also prints every log line (detailed request logs included), as `zapier invoke` does. */
export function zapierHandler({ printLogs = false } = {}) {
  const handler = createAppHandler(App);
  const logs: CoreLogLine[] = [];
  return {
    App,
    logs,
    /** `method` is the definition path, e.g. `creates.create_incident.operation.perform`. Resolves to the whole envelope. */
    run(method: string, bundle: Record<string, unknown>): Promise<{ results: unknown }> {
      return handler({
        command: 'execute',
        method,
        bundle,
        logToStdout: printLogs,
        detailedLogToStdout: printLogs,
        customLogger: (message: string, data: Record<string, unknown>) => logs.push({ message, data }),
      });
    },
  };
}

/** A Zapier error as a short name: `AppError:<code>` for AppError, else the error's name. */
export function zapierErrorName(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  if (name === 'AppError') {
    try {
      return `AppError:${(JSON.parse(message ?? '') as { code?: string }).code}`;
    } catch {
      return 'AppError:?';
    }
  }
  return name ?? String(error);
}

/** The JSON payload of an AppError or ThrottledError message. */
export function zapierErrorPayload(error: unknown): Record<string, unknown> {
  try {
    return JSON.parse((error as Error).message) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A read and a create of the app, as core's handler names them: what the fault suites drive through it. */
export const READ_AND_CREATE = [
  ['triggers.team.operation.perform', {}],
  ['creates.create_incident.operation.perform', { title: 'Disk full' }],
] as const;

/**
 * The app reads its base from PAGERLY_BASE_URL on every call: a describe block that points it
 * at its own servers gets it back as it was after each test.
 */
export function restoreBaseUrlAfterEach(afterEach: (fn: () => void) => void): void {
  const saved = process.env.PAGERLY_BASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PAGERLY_BASE_URL;
    else process.env.PAGERLY_BASE_URL = saved;
  });
}
