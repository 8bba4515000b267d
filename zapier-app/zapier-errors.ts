import type { ZObject } from 'zapier-platform-core';
import { isPagerlyError, RateLimitError, type PagerlyError } from '../shared/errors.ts';
import { showInvisibleControls } from '../shared/visible-controls.ts';

/**
 * The longest wait handed to Zapier as a ThrottledError. Zapier documents no ceiling; a run
 * held "Waiting" for more than a day helps nobody, so a longer Retry-After stops the step at
 * once with the time to retry in the message (RateLimitError says it in human terms).
 */
const LONGEST_THROTTLE_S = 24 * 3600;

/** Without a Retry-After, Zapier is asked to come back in a minute or two (jittered, as Zapier advises). */
const fallbackDelaySeconds = () => 60 + Math.floor(Math.random() * 60);

/**
 * The shared error model in Zapier's terms; which failures may be retried is the model's
 * (`retryable`, `mayHaveApplied`), not decided again here:
 * - an invalid key marks the connection as needing attention (ExpiredAuthError), with the service's text;
 * - what a retry cannot do twice (429, 503, any 5xx or time-out of a read, a create refused
 *   before it left) is retried later by Zapier (ThrottledError, shown as waiting, not failed);
 * - a create that may have been done (a 500, 502 or 504, a time-out or reset after it was
 *   sent) halts the step (HaltedError): Zapier neither replays it by itself, which could make
 *   a second incident, nor counts it towards turning the Zap off; the message says to check
 *   in Pagerly before replaying. Zapier docs: "Halted: the Zap run was stopped on purpose"
 *   (help.zapier.com/hc/en-us/articles/20505304170637), Autoreplay retries errored steps
 *   (docs.zapier.com/platform/manage/api-outage);
 * - everything else stops the step with a message that says what to fix.
 */
export function toZapierError(z: ZObject, error: unknown): Error {
  return withoutCoreContext(zapierErrorFor(z, error));
}

function zapierErrorFor(z: ZObject, error: unknown): Error {
  if (!isPagerlyError(error)) return error instanceof Error ? error : new Error(String(error));
  const failure: PagerlyError = error;
  // The service's reason in it is shown on Zapier's pages: its invisible controls shown, never applied.
  const message = showInvisibleControls(failure.message);
  if (failure.code === 'authentication') return new z.errors.ExpiredAuthError(message);
  if (failure.mayHaveApplied) return new z.errors.HaltedError(message);
  if (failure instanceof RateLimitError && (failure.retryAfterSeconds ?? 0) > LONGEST_THROTTLE_S) {
    return new z.errors.Error(message, failure.code, failure.status);
  }
  if (failure.retryable) {
    const delay = failure instanceof RateLimitError ? (failure.retryAfterSeconds ?? fallbackDelaySeconds()) : fallbackDelaySeconds();
    return new z.errors.ThrottledError(message, delay);
  }
  return new z.errors.Error(message, failure.code, failure.status);
}

/**
 * Unless an error carries `doNotContextify`, core appends to its message what happened during
 * the step, each answer's first 100 characters as they came (log-response.js, middleware.js
 * enrichErrorMessages), and in production the step's console lines (create-lambda-handler.js).
 * core's own errors for Zap builders (AppError behind z.errors.Error, ThrottledError) carry the
 * flag; ours carry it too. Their messages are already written for the Zap builder and redacted,
 * and an answer that quotes the key must not come back through core's appendix.
 */
function withoutCoreContext(error: Error): Error {
  Object.assign(error, { doNotContextify: true });
  return error;
}
