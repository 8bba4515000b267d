import type { OrgPerson } from './org.ts';
import { type Answer, numberParam, pageOf, type SeenRequest, type Vendor } from './stand-in.ts';

/** An Opsgenie API key's form. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OpsgenieOptions {
  readonly totalCount?: (real: number) => unknown;
  /** Whether List Contacts is served (default true); without it, contacts come only from Get User's `expand=contact`. */
  readonly contactsApi?: boolean;
  /** Where a page's links are given: the body's `paging`, the `X-Paging-*` headers, or both (default, as Pagination says). */
  readonly paging?: 'body' | 'headers' | 'both';
}

/**
 * Opsgenie's User and Contact APIs as their references describe them (the import's own sources
 * list each page; docs/migrate.md names them):
 * - Authorization: `GenieKey <key>` (Contact API samples; opsgenie-go-sdk-v2 client.go); an
 *   unknown key answers 401 with the ErrorResponse body `{message, took, requestId}` (opsgenie-oas
 *   definitions/common.yaml, responses/common.yaml "apiKey is invalid"), `Could not authenticate`;
 *   a key not of its format (a UUID) answers 422 `Key format is not valid!` (what the service
 *   answers: opsgenie/opsgenie-lamp#50, falcosecurity/falcosidekick#719).
 * - GET /v2/users: `limit` (default 20, at most 100: Pagination) and `offset`; the page is
 *   `{data, totalCount, paging: {first, last, next?}, took, requestId}` (ListUsersResponse,
 *   PageDetails); `next` is an absolute URL on the API's host and is absent on the last page;
 *   the same links in the X-Paging-Next, X-Paging-First and X-Paging-Last headers (Pagination:
 *   "Within X-Paging-Next header", "Within paging section of the response body"; paths/user.yaml).
 *   A user: `{id, username, fullName, role: {id, name}, blocked, verified, timeZone, locale, createdAt}`.
 * - GET /v2/users/{identifier}?expand=contact (User API, Get User; opsgenie-oas paths/user.yaml,
 *   "The only expandable field for user api is 'contact'"): `{data: {...user, userContacts:
 *   [{to, id, contactMethod, disabledReason, enabled}]}, expandable, took, requestId}`
 *   (GetUserResponse, UserContact); the identifier is the id or the username; 404 for one it does not know.
 * - GET /v2/users/{id}/contacts: `{data: [{id, method, to, status: {enabled}, applyOrder}]}`
 *   (ListContactsResponse, ContactWithApplyOrder); `to` of sms and voice is `<country code>-<number>`
 *   (Contacts API, "to": "1-9999999999"); 404 for a user it does not know.
 * - Every answer carries X-Request-ID and the X-RateLimit-State header (paths/user.yaml).
 */
export function opsgenie(org: readonly OrgPerson[], key: string, options: OpsgenieOptions = {}): Vendor {
  const byId = new Map(org.flatMap((person) => [[person.id, person] as const, [person.email, person] as const]));
  const paging = options.paging ?? 'both';
  const meta = (n: number) => ({ took: 0.012, requestId: `req-${n}` });
  let answered = 0;
  const ok = (body: Record<string, unknown>, headers: Record<string, string> = {}): Answer => {
    answered += 1;
    return { status: 200, headers: { 'x-request-id': `req-${answered}`, 'x-ratelimit-state': 'OK', ...headers }, body: { ...body, ...meta(answered) } };
  };
  return {
    authorized: (seen: SeenRequest) => seen.headers.authorization === `GenieKey ${key}`,
    unauthorized: (seen) =>
      UUID.test(/^GenieKey (.*)$/.exec(String(seen.headers.authorization ?? ''))?.[1] ?? '')
        ? { status: 401, body: { message: 'Could not authenticate', took: 0.002, requestId: 'req-unauthorized' } }
        : { status: 422, body: { message: 'Key format is not valid!', took: 0.0, requestId: 'req-key-format' } },
    route(seen, origin) {
      const path = seen.url.pathname;
      if (seen.method === 'GET' && path === '/v2/users') {
        const limit = Math.min(Math.max(numberParam(seen.url, 'limit', 20), 1), 100);
        const offset = Math.max(numberParam(seen.url, 'offset', 0), 0);
        const link = (at: number) => `${origin}/v2/users?limit=${limit}&offset=${at}`;
        const last = Math.max(0, Math.floor((org.length - 1) / limit) * limit);
        const links: Record<string, string> = { first: link(0), last: link(last), ...(offset + limit < org.length ? { next: link(offset + limit) } : {}) };
        return ok(
          {
            data: pageOf(org, offset, limit).map(userOf),
            totalCount: options.totalCount ? options.totalCount(org.length) : org.length,
            ...(paging === 'headers' ? {} : { paging: links }),
          },
          paging === 'body' ? {} : Object.fromEntries(Object.entries(links).map(([name, url]) => [`x-paging-${name}`, url])),
        );
      }
      const user = /^\/v2\/users\/([^/]+)$/.exec(path);
      if (seen.method === 'GET' && user) {
        const person = byId.get(decodeURIComponent(user[1]!));
        if (!person) return { status: 404, body: { message: 'No user exists with identifier', ...meta(0) } };
        const expand = (seen.url.searchParams.get('expand') ?? '').split(',').includes('contact');
        return ok({
          data: {
            ...userOf(person),
            ...(expand
              ? {
                  userContacts: [
                    { to: person.email, id: `${person.id}-email`, contactMethod: 'email', disabledReason: '', enabled: true },
                    ...person.phones.map((phone, at) => ({
                      to: `${phone.cc}-${phone.number}`,
                      id: `${person.id}-${at}`,
                      contactMethod: phone.method,
                      disabledReason: phone.enabled ? '' : 'Disabled by user',
                      enabled: phone.enabled,
                    })),
                  ],
                }
              : {}),
          },
          expandable: ['contact'],
        });
      }
      const contacts = /^\/v2\/users\/([^/]+)\/contacts$/.exec(path);
      if (seen.method === 'GET' && contacts && options.contactsApi !== false) {
        const person = byId.get(decodeURIComponent(contacts[1]!));
        if (!person) return { status: 404, body: { message: 'No user exists with identifier', ...meta(0) } };
        return ok({
          data: [
            { id: `${person.id}-email`, method: 'email', to: person.email, status: { enabled: true }, applyOrder: 0 },
            ...person.phones.map((phone, at) => ({
              id: `${person.id}-${at}`,
              method: phone.method,
              to: `${phone.cc}-${phone.number}`,
              status: phone.enabled ? { enabled: true } : { enabled: false, disabledReason: 'Disabled by user' },
              applyOrder: at + 1,
            })),
          ],
        });
      }
      return { status: 404, body: { message: 'Not found', ...meta(0) } };
    },
  };
}

function userOf(person: OrgPerson) {
  return {
    id: person.id,
    username: person.email,
    fullName: person.name,
    role: { id: `role-${person.role.toLowerCase()}`, name: person.role },
    blocked: person.state === 'blocked',
    verified: person.state !== 'invited',
    timeZone: 'Europe/Istanbul',
    locale: 'en_US',
    userAddress: { country: '', state: '', city: '', line: '', zipCode: '' },
    createdAt: '2017-05-12T08:34:49.395Z',
  };
}

/** Opsgenie's 429 (Rate limiting: "rejected with the HTTP status 429"), with or without a wait in its headers. */
export const opsgenieRateLimited = (headers: Readonly<Record<string, string>> = {}): Answer => ({
  status: 429,
  headers: { 'x-ratelimit-state': 'THROTTLED', 'x-ratelimit-reason': 'ACCOUNT', ...headers },
  body: { message: 'You are making too many requests! To avoid errors, we recommend you to limit requests.', took: 0.001, requestId: 'req-throttled' },
});
