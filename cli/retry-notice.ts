import type { RetryNotice } from '../shared/transports/retry-notice.ts';

/**
 * The line a person sees on stderr while the CLI waits to try a request again: why, how long,
 * and which attempt comes next. Without it a 429 with `Retry-After: 30` looks like a hang.
 */
export function retryNoticeText({ attempt, of, delayMs, status, code }: RetryNotice, service = 'Pagerly'): string {
  const why =
    status === 429
      ? `Rate limited by ${service}`
      : status !== undefined
        ? `${service} answered HTTP ${status}`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? // Not "no answer": the base URL's host name did not resolve (the final error, if it
            // stays so, says the host does not exist); the retry covers a passing DNS failure.
            `The host name of the base URL did not resolve (${code})`
          : code === 'ECONNREFUSED'
            ? `Nothing is listening at the base URL (${code})`
            : `No answer from ${service} (${code ?? 'network error'})`;
  const seconds = Math.round(delayMs / 100) / 10;
  return `${why}; retrying in ${seconds} s (attempt ${attempt} of ${of})…`;
}
