import { REQUEST_TIMEOUT_MS } from '../../zapier-app/z-request-transport.ts';
import { zapierErrorName, zapierErrorPayload, zapierHandler } from '../reliability/zapier-handler.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { settle, type Outcome, type SurfaceDriver, type Target } from './driver.ts';

/** The classes of core's `z.errors` the app's errors are made of (zapier-app/zapier-errors.ts). */
const ZAPIER_ERRORS = /^(AppError:\w+|ThrottledError|HaltedError|ExpiredAuthError)$/;

let handler: ReturnType<typeof zapierHandler> | undefined;

/**
 * One step of the Zapier app through zapier-platform-core's own handler. The app reads its base
 * from PAGERLY_BASE_URL on every call, so it is set for the call and put back after it.
 */
async function step(method: string, inputData: Record<string, unknown>, { baseUrl, apiKey }: Target): Promise<Outcome> {
  handler ??= zapierHandler();
  const zapier = handler;
  const saved = process.env.PAGERLY_BASE_URL;
  process.env.PAGERLY_BASE_URL = baseUrl;
  try {
    return await settle(
      async () => (await zapier.run(method, { authData: { apiKey }, inputData })).results,
      (error) => {
        const kind = zapierErrorName(error);
        // AppError and ThrottledError carry a JSON payload whose message is what Zapier shows.
        const payload = zapierErrorPayload(error).message;
        return { kind, message: typeof payload === 'string' ? payload : String((error as Error)?.message), own: ZAPIER_ERRORS.test(kind) };
      },
    );
  } finally {
    if (saved === undefined) delete process.env.PAGERLY_BASE_URL;
    else process.env.PAGERLY_BASE_URL = saved;
  }
}

export const zapierDriver: SurfaceDriver = {
  name: 'Zapier',
  surface: 'Zapier',
  read: (target) => step('triggers.team.operation.perform', {}, target),
  write: (target) => step('creates.create_incident.operation.perform', { title: 'Disk full' }, target),
  checkKey: (target) => step('authentication.test', {}, target),
  redirect: { kind: 'AppError:redirect', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  hang: {
    gap: `z.request is given a fixed ${REQUEST_TIMEOUT_MS / 1000} s (under Zapier's 30 s per step), too long for the suite: here a slow answer must be waited for; node-fetch's time-out and its mapping are proven in faults-outcome.test.ts`,
  },
  cutOffGap: (framing) =>
    framing === 'Content-Length'
      ? `node-fetch 2.7 (core's HTTP client) never settles an answer cut off short of its Content-Length: the step ends at the transport's ${REQUEST_TIMEOUT_MS / 1000} s time-out, which faults-zapier.test.ts proves is set`
      : undefined,
  // Core's handler patches Node's http modules and fetch for the whole jest worker otherwise.
  useInTestFile: isolateZapierCore,
};
