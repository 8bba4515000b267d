import type { ZObject } from 'zapier-platform-core';
import { isPagerlyError, NetworkError, TimeoutError } from '../shared/errors.ts';
import { redact } from '../shared/redact.ts';
import type { HttpRequest, HttpResponse, Transport } from '../shared/http/types.ts';

/**
 * The shared API module's transport on `z.request`, so Zapier's request log, middleware and
 * secret scrubbing stay in play. The module interprets every status itself: core must not
 * throw first (`skipThrowForStatus`), nor turn a 429 into its generic ThrottledError before
 * the service's Retry-After and text are read (`throwForThrottlingEarly: false`).
 */
/** Under Zapier's own 30 s limit for a step, so the step ends with a retryable error, not a kill. */
export const REQUEST_TIMEOUT_MS = 25_000;

export function zRequestTransport(z: ZObject): Transport {
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      let response: Awaited<ReturnType<ZObject['request']>>;
      try {
        response = await z.request({
        url: request.url,
        method: request.method,
        params: request.query,
        headers: request.headers,
        body: request.body,
        skipThrowForStatus: true,
        // node-fetch would otherwise wait forever for an answer cut off mid-body; Zapier then retries it.
        timeout: REQUEST_TIMEOUT_MS,
        throwForThrottlingEarly: false,
      } as Parameters<ZObject['request']>[0]);
      } catch (error) {
        throw noAnswer(error, request);
      }
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: response.content,
      };
    },
  };
}

/** No answer came (refused, reset, DNS, time-out): the shared error, so Zapier retries it later. */
function noAnswer(error: unknown, request: HttpRequest): Error {
  if (isPagerlyError(error)) return error;
  // Only a failure to get an answer is a network error (retried later); anything else is a bug to see.
  const name = (error as { name?: string }).name;
  if (name !== 'FetchError' && name !== 'AbortError' && (error as { code?: unknown }).code === undefined) return error as Error;
  const host = new URL(request.url).host;
  const { code, type, message = '' } = error as { code?: string; type?: string; message?: string };
  const text = redact(message, Object.values(request.headers));
  if (type === 'request-timeout' || type === 'body-timeout' || code === 'ETIMEDOUT' || (error as Error).name === 'AbortError') {
    return new TimeoutError(`The service at ${host} did not answer in time. Zapier will try again.`, { endpoint: request.endpoint });
  }
  return new NetworkError(`Could not reach the service at ${host} (${code ?? type ?? 'network error'}${text ? `: ${text}` : ''}). Check the service's status; Zapier will try again.`, { endpoint: request.endpoint });
}
