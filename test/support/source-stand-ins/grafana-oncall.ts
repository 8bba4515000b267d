import type { OrgPerson } from './org.ts';
import { type Answer, numberParam, pageOf, type SeenRequest, type Vendor } from './stand-in.ts';

/** Where the stand-in serves the OnCall API, as a stack's OnCall API URL has a path of its own. */
export const ONCALL_PREFIX = '/oncall';

/**
 * Grafana OnCall's List Users as its reference describes it (HTTP API reference; Users HTTP
 * API; the engine's source, which the import's sources list):
 * - Authorization: the token alone (`--header "Authorization: <api_key>"`). A bad one answers
 *   403 `{"detail": "Invalid token."}`: ApiTokenAuthentication raises AuthenticationFailed, and
 *   as neither of the view's authentication classes gives an authenticate_header, Django REST
 *   framework answers it 403, not 401 (engine/apps/auth_token/auth.py; the engine's own test,
 *   public_api/tests/test_resolution_notes.py, expects 403).
 * - GET {API_URL}/api/v1/users/: page-number pages of a fixed size (the engine's paginators:
 *   `page`, `perpage` at most 100); the page is `{count, next, previous, results,
 *   current_page_number, page_size, total_pages}`; `next` is an absolute URL the engine builds
 *   from its own base URL, null on the last page.
 * - A user: `{id, email, slack, username, role, timezone, teams}`; `role` is `admin`, `editor`
 *   or `viewer` (LegacyAccessControlRole); no phone number, no display name.
 * - 429 when rate limited (reference, Rate Limits), with Retry-After (Django REST framework's
 *   throttles) and RateLimit-Reset (the engine's RateLimitHeadersMixin).
 */
export function grafanaOnCall(org: readonly OrgPerson[], key: string, options: { pageSize?: number } = {}): Vendor {
  const size = options.pageSize ?? 50;
  return {
    authorized: (seen: SeenRequest) => seen.headers.authorization === key,
    unauthorized: { status: 403, body: { detail: 'Invalid token.' } },
    route(seen, origin) {
      if (seen.method === 'GET' && seen.url.pathname === `${ONCALL_PREFIX}/api/v1/users/`) {
        const pages = Math.max(1, Math.ceil(org.length / size));
        const page = numberParam(seen.url, 'page', 1);
        if (page < 1 || page > pages) return { status: 404, body: { detail: 'Invalid page.' } };
        const link = (n: number) => (n === 1 ? `${origin}${ONCALL_PREFIX}/api/v1/users/` : `${origin}${ONCALL_PREFIX}/api/v1/users/?page=${n}`);
        return {
          status: 200,
          body: {
            count: org.length,
            next: page < pages ? link(page + 1) : null,
            previous: page > 1 ? link(page - 1) : null,
            results: pageOf(org, (page - 1) * size, size).map((person) => ({
              id: person.id,
              email: person.email,
              slack: null,
              username: person.name,
              role: person.role,
              timezone: 'UTC',
              teams: [],
            })),
            current_page_number: page,
            page_size: size,
            total_pages: pages,
          },
        };
      }
      return { status: 404, body: { detail: 'Not found.' } };
    },
  };
}

/**
 * A throttled answer: 429 with Django REST framework's `detail` and Retry-After (its exception
 * handler sets it from the throttle's wait), and the engine's RateLimit-Reset (common/api_helpers/
 * mixins.py, RateLimitHeadersMixin, on UserView). Either may be left out, to see the other read.
 */
export const oncallRateLimited = (retryAfter?: number, reset: number | undefined = retryAfter): Answer => ({
  status: 429,
  headers: {
    ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
    ...(reset === undefined ? {} : { 'ratelimit-reset': String(reset) }),
  },
  body: { detail: `Request was throttled.${retryAfter === undefined ? '' : ` Expected available in ${retryAfter} seconds.`}` },
});
