import got, { type RetryOptions } from 'got';
import { NetworkError, TimeoutError } from '../errors.ts';
import { redact } from '../redact.ts';
import type { HttpRequest, HttpResponse, Transport } from '../http/types.ts';

export interface GotTransportOptions {
  /** Whole-request time limit per attempt; default 15 s (assumption `limits`). */
  timeoutMs?: number;
  /** Extra attempts after the first; default 2. */
  retries?: number;
  /** First backoff delay, doubled each attempt; default 500 ms. */
  backoffMs?: number;
  /** A longer `Retry-After` is not waited for: the caller gets the RateLimitError instead. Default 60 s. */
  maxRetryAfterMs?: number;
}

// Statuses worth a second try; 429 is retried for every request because the service did not act on it.
const RETRY_STATUSES = [429, 500, 502, 503, 504];
// got's own list, plus an answer cut off mid-body (Content-Length not reached, or the stream closed early).
const RETRY_ERROR_CODES = [
  'ETIMEDOUT', 'ECONNRESET', 'EADDRINUSE', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN',
  'ERR_HTTP_CONTENT_LENGTH_MISMATCH', 'ERR_STREAM_PREMATURE_CLOSE',
];

/**
 * got as the typed client's transport: timeouts, and retries with exponential backoff that
 * honour `Retry-After`, only for requests that are safe to repeat (or were refused with 429).
 */
export function gotTransport(options: GotTransportOptions = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const backoffMs = options.backoffMs ?? 500;
  const retry: Partial<RetryOptions> = {
    limit: options.retries ?? 2,
    methods: ['GET', 'POST', 'DELETE'],
    statusCodes: RETRY_STATUSES,
    errorCodes: RETRY_ERROR_CODES,
    maxRetryAfter: options.maxRetryAfterMs ?? 60_000,
  };

  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      try {
        const response = await got(request.url, {
          method: request.method,
          headers: request.headers,
          searchParams: request.query,
          body: request.body,
          responseType: 'text',
          throwHttpErrors: false,
          timeout: { request: timeoutMs },
          retry: {
            ...retry,
            calculateDelay: ({ attemptCount, error, computedValue, retryAfter }) => {
              if (computedValue === 0) return 0; // got's own rules said no (limit, status, method, Retry-After too long)
              const rateLimited = error.response?.statusCode === 429;
              if (!request.idempotent && !rateLimited) return 0;
              return retryAfter ?? backoffMs * 2 ** (attemptCount - 1);
            },
          },
        });
        return { status: response.statusCode, headers: response.headers, body: response.body };
      } catch (error) {
        throw transportError(error, request, timeoutMs);
      }
    },
  };
}

/** got's errors carry the request options (and so the key): only their code and host go on. */
function transportError(error: unknown, request: HttpRequest, timeoutMs: number): Error {
  const host = new URL(request.url).host;
  const code = (error as { code?: string }).code ?? 'unknown error';
  if ((error as { name?: string }).name === 'TimeoutError') {
    return new TimeoutError(`The service at ${host} did not answer within ${timeoutMs / 1000} s. Try again; if it keeps happening, check the service's status.`, { endpoint: request.endpoint });
  }
  const message = redact((error as { message?: string }).message ?? '', Object.values(request.headers));
  return new NetworkError(`Could not reach the service at ${host} (${code}${message ? `: ${message}` : ''}). Check the network and the base URL.`, { endpoint: request.endpoint });
}
