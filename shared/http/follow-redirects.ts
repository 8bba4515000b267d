import type { HttpMethod } from '../catalog/endpoint.ts';
import { holdsSecret } from '../redact.ts';
import { isSameOriginRedirect, MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget } from './redirect.ts';
import type { HttpResponse, OutgoingRequest } from './types.ts';

/** One hop, sent with the platform's redirects turned off: the query goes only with the first URL. */
export interface Hop {
  readonly url: string;
  readonly method: HttpMethod;
  readonly body: string | undefined;
  readonly first: boolean;
}

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name] ?? response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** A URL with its escapes undone (a stray `%` leaves it as it is). */
function decodedOrAsIs(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * The redirect policy of every transport whose platform would follow a redirect anywhere with
 * X-APIKEY still on (node-fetch under zapier-platform-core, axios under n8n): the platform is
 * told not to follow, and this follows a redirect only to the origin that answered, as got does
 * for the typed client. 303 turns the request into a GET without a body (RFC 9110 §15.4.4), the
 * others keep it. A target that quotes the key is not followed either: platforms log the URL
 * they send to. Whatever is not followed comes back as the 3xx it is, which the API module
 * turns into a `RedirectError` naming the target's host.
 */
export async function followSameOriginRedirects(request: OutgoingRequest, sendOnce: (hop: Hop) => Promise<HttpResponse>): Promise<HttpResponse> {
  let hop: Hop = { url: request.url, method: request.method, body: request.body, first: true };
  let response = withUrl(await sendOnce(hop), hop.url);
  for (let count = 0; REDIRECT_STATUSES.has(response.status) && count < MAX_REDIRECTS; count++) {
    const from = response.url ?? hop.url;
    const location = header(response, 'location');
    if (!isSameOriginRedirect(location, from)) break;
    const target = redirectTarget(location, from)!.href;
    if (holdsSecret(`${location} ${target} ${decodedOrAsIs(target)}`, Object.values(request.headers))) break;
    hop = response.status === 303 ? { url: target, method: 'GET', body: undefined, first: false } : { ...hop, url: target, first: false };
    response = withUrl(await sendOnce(hop), target);
  }
  return response;
}

/** The URL that answered, where the platform does not say it: a relative Location resolves against it. */
function withUrl(response: HttpResponse, url: string): HttpResponse {
  return response.url ? response : { ...response, url };
}
