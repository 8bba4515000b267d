import type { PagerlyErrorCode } from '../../shared/errors.ts';
import { REQUEST_TIMEOUT_MS } from '../../zapier-app/z-request-transport.ts';
import { zapierErrorName, zapierErrorPayload, zapierHandler } from '../reliability/zapier-handler.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { codeOfSharedMessage, INPUT, settle, type ErrorKind, type Outcome, type SurfaceDriver, type Target } from './driver.ts';

/** The classes of core's `z.errors` the app's errors are made of (zapier-app/zapier-errors.ts). */
const ZAPIER_ERRORS = /^(AppError:\w+|ThrottledError|HaltedError|ExpiredAuthError)$/;

let handler: ReturnType<typeof zapierHandler> | undefined;

/**
 * Zapier's error classes in the shared model's codes (the inverse of zapier-app/zapier-errors.ts):
 * an AppError carries the code; ExpiredAuthError is an invalid key; ThrottledError (what Zapier
 * retries later) and HaltedError (a create that may have been done) each cover several codes,
 * told apart by the shared wording they pass on.
 */
function kindOf(native: string, message: string): ErrorKind {
  if (native.startsWith('AppError:')) return native.slice('AppError:'.length) as PagerlyErrorCode;
  if (native === 'ExpiredAuthError') return 'authentication';
  return codeOfSharedMessage(message);
}

/**
 * One step of the Zapier app through zapier-platform-core's own handler. The app reads its base
 * from PAGERLY_BASE_URL on every call, so it is set for the call and put back after it.
 */
async function step(method: string, bundle: Record<string, unknown>, { baseUrl, apiKey }: Target): Promise<Outcome> {
  handler ??= zapierHandler();
  const zapier = handler;
  const saved = process.env.PAGERLY_BASE_URL;
  process.env.PAGERLY_BASE_URL = baseUrl;
  try {
    return await settle(
      async () => (await zapier.run(method, { authData: { apiKey }, inputData: {}, ...bundle })).results,
      (error) => {
        const native = zapierErrorName(error);
        // AppError and ThrottledError carry a JSON payload whose message is what Zapier shows.
        const payload = zapierErrorPayload(error).message;
        const message = typeof payload === 'string' ? payload : String((error as Error)?.message);
        return { kind: kindOf(native, message), native, message, own: ZAPIER_ERRORS.test(native) };
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
  write: (target) => step('creates.create_incident.operation.perform', { inputData: { title: 'Disk full' } }, target),
  checkKey: (target) => step('authentication.test', {}, target),
  onCall: (target) => step('searches.find_on_call_users.operation.perform', { inputData: { teamname: INPUT.team } }, target),
  everyoneOnCall: (target) => step('searches.find_on_call_users.operation.perform', { inputData: {} }, target),
  directoryEntry: (target) => step('searches.find_directory_entry.operation.perform', { inputData: { email: target.email ?? INPUT.email } }, target),
  directoryWrite: (target) =>
    step('creates.update_directory_phone.operation.perform', { inputData: { email: target.email ?? INPUT.email, phone: INPUT.phone } }, target),
  unsubscribe: (target) => step('triggers.on_call_changed.operation.performUnsubscribe', { subscribeData: { id: INPUT.hookId } }, target),
  redirect: { native: 'AppError:redirect', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
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
