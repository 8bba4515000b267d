import { NetworkError, TimeoutError } from '../../shared/errors.ts';
import { followSameOriginRedirects, type Hop } from '../../shared/http/follow-redirects.ts';
import type { HttpRequest, HttpResponse, Transport } from '../../shared/http/types.ts';
import { CREDENTIAL } from '../names.ts';
import type { N8nBaseContext, N8nFullResponse, N8nHttpRequest } from './n8n-api.ts';

/** Under n8n's own default execution limits, and long enough for a slow service to answer. */
export const REQUEST_TIMEOUT_MS = 25_000;

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/**
 * The shared API module's transport on n8n's `httpRequestWithAuthentication`, so n8n adds the
 * key from the credential (its `authenticate` block) and applies its own proxy and SSRF rules.
 * The module interprets every status itself: n8n must not throw for one
 * (`ignoreHttpStatusErrors`) nor parse the body (`encoding: 'text'`).
 */
export function n8nTransport(context: N8nBaseContext): Transport {
  // n8n's helper reads the context it is called on (declared as all of n8n's contexts); the
  // runtime is only ever given n8n's own contexts, and uses no more of them than N8nBaseContext.
  const requestWithAuthentication = context.helpers.httpRequestWithAuthentication as (
    this: N8nBaseContext,
    credentialsType: string,
    requestOptions: N8nHttpRequest,
  ) => Promise<N8nFullResponse>;
  const once = async (request: HttpRequest, hop: Hop): Promise<HttpResponse> => {
    let response: N8nFullResponse;
    try {
      response = await requestWithAuthentication.call(context, CREDENTIAL.name, {
        url: hop.url,
        method: hop.method,
        qs: hop.first ? { ...request.query } : {},
        headers: { ...request.headers },
        ...(hop.body === undefined ? {} : { body: hop.body }),
        returnFullResponse: true,
        ignoreHttpStatusErrors: true,
        json: false,
        encoding: 'text',
        timeout: REQUEST_TIMEOUT_MS,
        // n8n follows redirects to any host and keeps every header but Authorization and Cookie
        // (@n8n/backend-network's redirect hop, even with sendCredentialsOnCrossOriginRedirect
        // off), so X-APIKEY would reach the other host: the shared policy follows same-origin
        // redirects itself and turns any other into an error naming the target's host.
        disableFollowRedirect: true,
      });
    } catch (error) {
      throw noAnswer(error, request);
    }
    const body = response.body;
    return {
      status: response.statusCode,
      headers: headerValues(response.headers ?? {}),
      body: typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body),
    };
  };
  return { send: (request) => followSameOriginRedirects(request, (hop) => once(request, hop)) };
}

/** n8n types headers as any data: each value as the text or texts it arrived as. */
function headerValues(headers: Record<string, unknown>): Record<string, string | string[] | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(String) : value === undefined || value === null ? undefined : String(value),
    ]),
  );
}

/**
 * No answer came (refused, reset, DNS, time-out). n8n wraps the HTTP library's error, whose
 * request settings hold the key header; only its error code is kept, never the error itself.
 */
function noAnswer(error: unknown, request: HttpRequest): Error {
  const cause = (error as { cause?: unknown }).cause;
  const code = [error, cause].map((e) => (e as { code?: unknown } | undefined)?.code).find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c));
  const host = new URL(request.url).host;
  if (code && TIMEOUT_CODES.has(code)) {
    return new TimeoutError(`The service at ${host} did not answer in time. Try again, or turn on the node's "Retry On Fail" setting.`, {
      endpoint: request.endpoint,
    });
  }
  return new NetworkError(
    `Could not reach the service at ${host} (${code ?? 'network error'}). Check the credential's Base URL and the service's status, then try again.`,
    { endpoint: request.endpoint },
  );
}
