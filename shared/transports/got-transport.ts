import got, { type RetryOptions } from 'got';
import { BODY_TOO_LARGE, bodyTooLarge } from '../http/answer-size.ts';
import { TRANSPORT_DEFAULTS } from './defaults.ts';
import { failureCode } from '../http/certificate.ts';
import { noAnswerError, RETRY_FAILURE_CODES, safeToResend, wasSent } from '../http/failure.ts';
import { isSameOriginRedirect, MAX_REDIRECTS, redirectError } from '../http/redirect.ts';
import { redact } from '../redact.ts';
import type { HttpRequest, HttpResponse, Transport } from '../http/types.ts';
import type { RetryNotice } from './retry-notice.ts';

export type { RetryNotice } from './retry-notice.ts';

export interface GotTransportOptions {
  /** Whole-request time limit per attempt; default 15 s (assumption `limits`). */
  timeoutMs?: number;
  /**
   * The most bytes of one answer read; default 64 MiB, as the fetch transport. An answer that
   * keeps coming is cut off there, not held until the process runs out of memory.
   */
  maxBodyBytes?: number;
  /** Extra attempts after the first; default 2. */
  retries?: number;
  /** First backoff delay, doubled each attempt; default 500 ms. */
  backoffMs?: number;
  /** A longer `Retry-After` is not waited for: the caller gets the RateLimitError instead. Default 60 s. */
  maxRetryAfterMs?: number;
  /**
   * Told before each retry, so a person waiting can see why and for how long (the CLI writes it
   * on stderr). Never given the request: its headers carry the key.
   */
  onRetry?: (retry: RetryNotice) => void;
  /** Aborts the request in flight, and any wait before a retry (an MCP tool call its client cancelled). */
  signal?: AbortSignal | undefined;
}

// Statuses worth a second try; which requests may have one is `safeToResend`'s (failure.ts) call.
const RETRY_STATUSES = [429, 500, 502, 503, 504];

/**
 * got as the typed client's transport: timeouts, and retries with exponential backoff that
 * honour `Retry-After`, only where a retry cannot do the work twice: requests safe to repeat,
 * answers that prove nothing was done (429, 503), and requests that never left (refused).
 * Redirects are followed only to the origin that answered; got would carry X-APIKEY to any
 * other host (it strips only the headers it knows, `followRedirect` in got's options.ts).
 */
export function gotTransport(options: GotTransportOptions = {}): Transport {
  const timeoutMs = options.timeoutMs ?? TRANSPORT_DEFAULTS.timeoutMs;
  const backoffMs = options.backoffMs ?? TRANSPORT_DEFAULTS.backoffMs;
  const retry: Partial<RetryOptions> = {
    limit: options.retries ?? TRANSPORT_DEFAULTS.retries,
    methods: ['GET', 'POST', 'DELETE'],
    statusCodes: RETRY_STATUSES,
    errorCodes: [...RETRY_FAILURE_CODES],
    maxRetryAfter: options.maxRetryAfterMs ?? TRANSPORT_DEFAULTS.maxRetryAfterMs,
  };

  const attempts = (retry.limit ?? 0) + 1;
  const maxBodyBytes = options.maxBodyBytes ?? TRANSPORT_DEFAULTS.maxBodyBytes;
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      // got has no bound of its own on a body: its progress is watched, and past the bound the
      // request is aborted (no retry: the same answer would come again).
      const bound = new AbortController();
      const signal = options.signal ? AbortSignal.any([bound.signal, options.signal]) : bound.signal;
      try {
        const pending = got(request.url, {
          method: request.method,
          headers: request.headers,
          searchParams: request.query,
          body: request.body,
          responseType: 'text',
          throwHttpErrors: false,
          signal,
          timeout: { request: timeoutMs },
          // A redirect elsewhere comes back as the 3xx it is; the API module makes it a RedirectError.
          followRedirect: (response) => isSameOriginRedirect(response.headers.location, response.url),
          maxRedirects: MAX_REDIRECTS,
          retry: {
            ...retry,
            calculateDelay: ({ attemptCount, error, computedValue, retryAfter }) => {
              if (computedValue === 0) return 0; // got's own rules said no (limit, status, method, Retry-After too long)
              const status = error.response?.statusCode;
              const safe =
                status === undefined
                  ? request.idempotent || !wasSent({ code: error.code, sent: sentBeforeFailure(error) })
                  : safeToResend(status, request.idempotent);
              if (!safe) return 0;
              const delayMs = retryAfter ?? backoffMs * 2 ** (attemptCount - 1);
              // Told here, before the wait: got's beforeRetry hooks run only after it (core/index.js).
              options.onRetry?.({ attempt: attemptCount + 1, of: attempts, delayMs, ...(status === undefined ? { code: error.code } : { status }) });
              return delayMs;
            },
          },
        });
        pending.on('downloadProgress', ({ transferred }: { transferred: number }) => {
          if (transferred > maxBodyBytes && !bound.signal.aborted) bound.abort(bodyTooLarge(maxBodyBytes));
        });
        const response = await pending;
        // got reports no progress for a body that came whole in its last chunk: measured here too.
        if (response.rawBody.byteLength > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
        return { status: response.statusCode, url: response.url, headers: response.headers, body: response.body };
      } catch (error) {
        if (bound.signal.aborted || (error as { code?: unknown }).code === BODY_TOO_LARGE) throw tooLargeError(request, maxBodyBytes, timeoutMs);
        throw transportError(error, request, timeoutMs);
      }
    },
  };
}

/** Whether got had written the whole request when it failed (its `upload` timing); undefined when it cannot say. */
function sentBeforeFailure(error: unknown): boolean | undefined {
  const timings = (error as { timings?: { upload?: number } }).timings;
  return timings === undefined ? undefined : timings.upload !== undefined;
}

/** An answer cut off at the bound: the shared error, in the fetch transport's words. */
function tooLargeError(request: HttpRequest, maxBodyBytes: number, timeoutMs: number): Error {
  return noAnswerError(request, {
    code: BODY_TOO_LARGE,
    timedOut: false,
    sent: undefined,
    detail: bodyTooLarge(maxBodyBytes).message,
    timeoutMs,
    retryAdvice: 'Check the network and the base URL.',
  });
}

/** got's errors carry the request options (and so the key): only their code and host go on. */
function transportError(error: unknown, request: HttpRequest, timeoutMs: number): Error {
  const { name, message = '' } = error as { name?: string; message?: string };
  const code = failureCode(error);
  if (name === 'MaxRedirectsError') {
    const response = (error as { response?: { statusCode: number; url: string; headers: Record<string, string | undefined> } }).response;
    return redirectError(
      request.endpoint,
      response?.statusCode ?? 302,
      response?.headers.location,
      response?.url ?? request.url,
      Object.values(request.headers),
    );
  }
  return noAnswerError(request, {
    code: code ?? 'unknown error',
    timedOut: name === 'TimeoutError',
    sent: sentBeforeFailure(error),
    detail: redact(message, Object.values(request.headers)),
    timeoutMs,
    retryAdvice: name === 'TimeoutError' ? "Try again; if it keeps happening, check the service's status." : 'Check the network and the base URL.',
  });
}
