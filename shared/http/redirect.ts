import { endpoints, type EndpointKey } from '../catalog/endpoints.ts';
import { RedirectError } from '../errors.ts';
import { redact } from '../redact.ts';

/** The statuses HTTP clients follow (RFC 9110 §15.4). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** How many same-origin redirects a transport follows before giving up (got's default is 10). */
export const MAX_REDIRECTS = 5;

/** What a user does about a redirect that was not followed. */
const CHECK_THE_BASE_URL = "Check the base URL (for example https rather than http, or the API's new address).";

/** `location` resolved against the URL that answered (when known); undefined when it is not a URL. */
export function redirectTarget(location: string | undefined, from: string | undefined): URL | undefined {
  if (!location?.trim()) return undefined;
  try {
    return new URL(location.trim(), from);
  } catch {
    return undefined;
  }
}

/**
 * A redirect is followed only to the origin that answered (same scheme, host and port), so
 * the API key goes to no host but the configured bases. Neither got nor node-fetch drops a
 * custom header such as X-APIKEY on a cross-origin redirect: got strips only `host`, `cookie`,
 * `cookie2`, `authorization` and `proxy-authorization` (got 16, `followRedirect` in
 * source/core/options.ts), node-fetch 2 only `authorization`, `www-authenticate`, `cookie`
 * and `cookie2` (lib/index.js).
 */
export function isSameOriginRedirect(location: string | undefined, from: string): boolean {
  const target = redirectTarget(location, from);
  return target !== undefined && target.origin === new URL(from).origin;
}

/**
 * The error for a redirect that was not followed. It names the status and the target's host
 * (redacted: a hostile service could put the key in a host name), never the target's path or
 * query, and says the request did not go there.
 */
export function redirectError(
  key: EndpointKey,
  status: number,
  location: string | undefined,
  from: string | undefined,
  secrets: readonly (string | undefined)[],
  summary: string = endpoints[key].summary,
): RedirectError {
  const action = summary.toLowerCase();
  const target = redirectTarget(location, from);
  const details = { endpoint: key, status };
  if (target === undefined) {
    return new RedirectError(
      `The service answered "${action}" with HTTP ${status}, a redirect without a usable target; it was not followed. Check the base URL.`,
      undefined,
      details,
    );
  }
  // URL parsing lowers the case of a host name: a key in it is looked for in lower case too.
  const host = redact(target.host, [...secrets, ...secrets.map((secret) => secret?.toLowerCase())]);
  const origin = `${target.protocol}//${host}`;
  const sameOrigin = from !== undefined && target.origin === new URL(from).origin;
  if (sameOrigin && !REDIRECT_STATUSES.has(status)) {
    return new RedirectError(
      `The service answered "${action}" with HTTP ${status}, which no API answer is; nothing more was sent. Check the base URL.`,
      host,
      details,
    );
  }
  if (sameOrigin) {
    return new RedirectError(
      `The service answered "${action}" with HTTP ${status}, redirecting to ${origin} again and again (more than ${MAX_REDIRECTS} times); stopped. Check the base URL.`,
      host,
      details,
    );
  }
  return new RedirectError(
    `The service answered "${action}" with HTTP ${status}, a redirect to another origin (${origin}); it was not followed and nothing was sent there, since the API key goes only to the configured base URLs. ${CHECK_THE_BASE_URL}`,
    host,
    details,
  );
}

/**
 * What a platform says that checks the key on its own and sees only the status (n8n's
 * declarative credential test): the target cannot be named, the rule and the advice are the same.
 */
export function unfollowedRedirectMessage(status: number, what = 'the key check'): string {
  return `The service answered ${what} with HTTP ${status}, a redirect; it was not followed and nothing was sent on, since the API key goes only to the configured base URLs. ${CHECK_THE_BASE_URL}`;
}
