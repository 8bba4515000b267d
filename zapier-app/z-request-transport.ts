import type { ZObject } from 'zapier-platform-core';
import { isPagerlyError } from '../shared/errors.ts';
import { failureCode } from '../shared/http/certificate.ts';
import { noAnswerError } from '../shared/http/failure.ts';
import { followSameOriginRedirects, type Hop } from '../shared/http/follow-redirects.ts';
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

// core's response has the URL that answered (prepare-response.js), though its types leave it out.
type ZResponse = Awaited<ReturnType<ZObject['request']>> & { url?: string };

export function zRequestTransport(z: ZObject): Transport {
  /** One request, redirects not followed: z.request passes `redirect` on to node-fetch (core's tools/request-client.js). */
  const once = async (request: HttpRequest, hop: Hop): Promise<HttpResponse> => {
    let response: ZResponse;
    try {
      response = await z.request({
        url: hop.url,
        method: hop.method,
        params: hop.first ? request.query : {},
        headers: request.headers,
        body: hop.body,
        skipThrowForStatus: true,
        // The app has no requestTemplate, so there is nothing to merge: left on (core's default,
        // prepare-request.js), core would lodash-merge the whole request, with the step's input
        // and so the app's compiled definition inside it, on every call (request-merge.js), and
        // would refuse user text that looks like a {{bundle.…}} curly. Off, a call costs about
        // 0.4 ms less (`npm run bench`). The request is sent as built here: method, URL, query
        // and headers are all set by the shared client.
        merge: false,
        // node-fetch would otherwise wait forever for an answer cut off mid-body; Zapier then retries it.
        timeout: REQUEST_TIMEOUT_MS,
        throwForThrottlingEarly: false,
        // node-fetch 2.7 follows redirects to any host with X-APIKEY still on (it drops only
        // authorization, www-authenticate, cookie and cookie2 across hosts, lib/index.js), and
        // core only objects afterwards when the new host is localhost (throw-for-disallowed-
        // hostname-after-redirect.js), by which time the key has left. So: never let it follow;
        // the shared policy follows same-origin redirects itself.
        redirect: 'manual',
      } as Parameters<ZObject['request']>[0]);
    } catch (error) {
      throw noAnswer(error, request);
    }
    return {
      status: response.status,
      url: response.url || hop.url,
      headers: Object.fromEntries(response.headers.entries()),
      body: response.content,
    };
  };

  return { send: (request) => followSameOriginRedirects(request, (hop) => once(request, hop)) };
}

/** No answer came (refused, reset, DNS, time-out): the shared error, which says whether Zapier may try again. */
function noAnswer(error: unknown, request: HttpRequest): Error {
  if (isPagerlyError(error)) return error;
  // Only a failure to get an answer is a network error (retried later); anything else is a bug to see.
  const name = (error as { name?: string }).name;
  // The code may sit on the error (node-fetch) or in its cause (undici's "fetch failed").
  const code = failureCode(error);
  if (name !== 'FetchError' && name !== 'AbortError' && code === undefined) return error as Error;
  const { type, message = '' } = error as { type?: string; message?: string };
  const timedOut = type === 'request-timeout' || type === 'body-timeout' || code === 'ETIMEDOUT' || name === 'AbortError';
  return noAnswerError(request, {
    code: code ?? type,
    timedOut,
    // node-fetch does not say whether the request had left: only a failure to connect counts as not sent.
    sent: undefined,
    detail: redact(message, Object.values(request.headers)),
    retryAdvice: timedOut ? 'Zapier will try again.' : "Check the service's status; Zapier will try again.",
  });
}
