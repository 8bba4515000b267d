import { endpoints, type EndpointKey } from '../catalog/endpoints.ts';
import { HostNotFoundError, NetworkError, TimeoutError, type PagerlyError } from '../errors.ts';
import { certificateError, isCertificateCode } from './certificate.ts';
import type { OutgoingRequest } from './types.ts';

/**
 * Which failures a retry can neither repeat work nor fail the same way: the one place every
 * transport and the error model read it from.
 *
 * Answers that prove the service did not act: 429 (RFC 6585 §4: the request was refused for
 * its rate) and 503 (RFC 9110 §15.6.4: the server is currently unable to handle the request).
 * A 500 says the service failed somewhere in handling it, and a 502 or 504 comes from a
 * gateway whose upstream may have done it before failing or running out of time: for a
 * request that is not safe to repeat, those may have been applied.
 */
const NOT_APPLIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Whether a create (or any request not safe to repeat) answered `status` may have been done anyway. */
export const statusMayHaveApplied = (status: number, idempotent: boolean): boolean => !idempotent && status >= 500 && !NOT_APPLIED_STATUSES.has(status);

/** Whether a request answered `status` may be sent again without doing anything twice. */
export const safeToResend = (status: number, idempotent: boolean): boolean => idempotent || NOT_APPLIED_STATUSES.has(status);

/**
 * System error codes that mean no byte of the request reached the service: the connection
 * was never made. (A reset, a broken pipe or a time-out can come after the request left.)
 */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

/**
 * Failures after which a request that is safe to repeat is sent again, by every transport:
 * got's own list, plus an answer cut off mid-body (Content-Length not reached, or the stream
 * closed early). Whether it is safe to repeat is `wasSent` and the request's idempotence.
 */
export const RETRY_FAILURE_CODES: readonly string[] = [
  'ETIMEDOUT',
  'ECONNRESET',
  'EADDRINUSE',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ERR_HTTP_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE',
];

/** Why no answer came, as a transport saw it. */
export interface NoAnswer {
  /** The system or library error code (ECONNREFUSED, ECONNRESET, ...), if any. */
  code: string | undefined;
  timedOut: boolean;
  /**
   * Whether the request (headers and body) had left when it failed. Transports that cannot
   * tell pass `undefined`: then only a failure to connect counts as not sent.
   */
  sent: boolean | undefined;
  /** What the transport said, already redacted; may be empty. */
  detail: string;
  /** The time limit, for the message ("within 15 s"); omitted when the transport does not know it. */
  timeoutMs?: number | undefined;
  /** The surface's own advice for a failure worth retrying ("Zapier will try again."). */
  retryAdvice: string;
}

export const wasSent = (failure: Pick<NoAnswer, 'code' | 'sent'>): boolean =>
  failure.sent ?? !(failure.code !== undefined && (NEVER_SENT_CODES.has(failure.code) || isCertificateCode(failure.code)));

/**
 * The shared error for a request that got no answer.
 * - ENOTFOUND: the name does not exist (DNS said so); the base URL is wrong → HostNotFoundError.
 * - A certificate that could not be verified (certificate.ts): a setting to fix, and the
 *   handshake failed before anything was sent → CertificateError, never retried.
 *   EAI_AGAIN is the resolver failing to answer for now: nothing was sent and it can pass → NetworkError.
 * - A create that had left before the connection broke or the time ran out may have been done:
 *   not retryable, and the message says to check first.
 */
export function noAnswerError(request: Pick<OutgoingRequest, 'url' | 'endpoint' | 'idempotent' | 'summary'>, failure: NoAnswer): PagerlyError {
  const host = new URL(request.url).host;
  const details = { endpoint: request.endpoint };
  if (isCertificateCode(failure.code)) return certificateError(request, failure.code);
  if (failure.code === 'ENOTFOUND') {
    return new HostNotFoundError(`The host ${host} does not exist (DNS lookup: ENOTFOUND); nothing was sent. Check the base URL.`, details);
  }
  const mayHaveApplied = !request.idempotent && wasSent(failure);
  const check = mayHaveApplied ? ` ${mayHaveAppliedAdvice(request.endpoint, request.summary)}` : ` ${failure.retryAdvice}`;
  if (failure.timedOut) {
    const within = failure.timeoutMs === undefined ? 'in time' : `within ${failure.timeoutMs / 1000} s`;
    return new TimeoutError(`The service at ${host} did not answer ${within}.${check}`, { ...details, mayHaveApplied });
  }
  const what = failure.code ?? 'network error';
  return new NetworkError(`Could not reach the service at ${host} (${what}${failure.detail ? `: ${failure.detail}` : ''}).${check}`, {
    ...details,
    mayHaveApplied,
  });
}

/** A catalog endpoint's summary; another service's call is named by itself. */
const summaryOf = (endpoint: string): string => (Object.hasOwn(endpoints, endpoint) ? endpoints[endpoint as EndpointKey].summary : endpoint);

/** What to do when a request may have been carried out although it failed. */
export function mayHaveAppliedAdvice(endpoint: OutgoingRequest['endpoint'], summary = summaryOf(endpoint)): string {
  const action = summary.toLowerCase();
  return `The request (${action}) had been sent, so it may have been done anyway: check in Pagerly before trying again, or it may be done twice.`;
}
