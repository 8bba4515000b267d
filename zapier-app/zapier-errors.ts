import type { ZObject } from 'zapier-platform-core';
import { isPagerlyError, RateLimitError, type PagerlyError } from '../shared/errors.ts';

/** Without a Retry-After, Zapier is asked to come back in a minute or two (jittered, as Zapier advises). */
const fallbackDelaySeconds = () => 60 + Math.floor(Math.random() * 60);

/**
 * The shared error model in Zapier's terms:
 * - an invalid key marks the connection as needing attention (ExpiredAuthError), with the service's text;
 * - rate limits, 5xx, network failures and time-outs are retried later by Zapier (ThrottledError, which
 *   shows the run as waiting instead of failed). A create that met a 5xx is retried too: the service
 *   answered that it failed, and a missed incident costs more than a rare duplicate;
 * - everything else stops the step with a message that says what to fix.
 */
export function toZapierError(z: ZObject, error: unknown): Error {
  if (!isPagerlyError(error)) return error instanceof Error ? error : new Error(String(error));
  const failure: PagerlyError = error;
  if (failure.code === 'authentication') return new z.errors.ExpiredAuthError(failure.message);
  if (failure.retryable) {
    const delay = failure instanceof RateLimitError ? (failure.retryAfterSeconds ?? fallbackDelaySeconds()) : fallbackDelaySeconds();
    return new z.errors.ThrottledError(failure.message, delay);
  }
  return new z.errors.Error(failure.message, failure.code, failure.status);
}
