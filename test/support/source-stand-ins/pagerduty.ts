import type { OrgPerson } from './org.ts';
import { type Answer, numberParam, pageOf, type SeenRequest, type Vendor } from './stand-in.ts';

/**
 * PagerDuty's List users as its reference describes it (PagerDuty/api-schema openapiv3.json and
 * the REST API guides the import's sources list):
 * - Authorization: `Token token=<key>` (Authentication: "this format must be followed precisely
 *   or you will receive a 401"); 401 with `{error: {message, code}}` (Errors; code 2006).
 * - Accept: `application/vnd.pagerduty+json;version=2` (Versioning); noted, not required.
 * - GET /users: classic pagination, `limit` (default 25, at most 100) and `offset`; `offset + limit`
 *   over 10,000 answers 400 (Pagination); the page is `{users, limit, offset, more, total}`, `total`
 *   null unless `total=true`.
 * - `include[]=contact_methods`: each user's contact methods in full (`email_contact_method`,
 *   `phone_contact_method`, `sms_contact_method` with `country_code`, `address`, `enabled`,
 *   `blacklisted`); without it, references (`*_reference`) only.
 * - GET /users/{id}/contact_methods: `{contact_methods: [...]}` (List a user's contact methods).
 * - GET /users/{id}: `{user}`, its contact methods in full with `include[]=contact_methods` (Get a
 *   user); 404 `{error: {message: "Not Found", code: 2100}}` for one it does not know.
 * - Every answer carries ratelimit-limit, ratelimit-remaining and ratelimit-reset (Rate Limits).
 */
export function pagerduty(
  org: readonly OrgPerson[],
  key: string,
  options: { referencesOnly?: boolean /** Whether List a user's contact methods is served (default true). */; contactMethodsApi?: boolean } = {},
): Vendor {
  const byId = new Map(org.map((person) => [person.id, person]));
  const limits = { 'ratelimit-limit': '960', 'ratelimit-remaining': '959', 'ratelimit-reset': '60' };
  return {
    authorized: (seen: SeenRequest) => seen.headers.authorization === `Token token=${key}`,
    unauthorized: { status: 401, body: { error: { message: 'Authentication failed', code: 2006 } } },
    route(seen, origin) {
      const path = seen.url.pathname;
      if (seen.method === 'GET' && path === '/users') {
        const limit = Math.min(Math.max(numberParam(seen.url, 'limit', 25), 1), 100);
        const offset = Math.max(numberParam(seen.url, 'offset', 0), 0);
        if (offset + limit > 10_000)
          return {
            status: 400,
            headers: limits,
            body: { error: { message: 'Invalid Input Provided', code: 2001, errors: ['Offset must be less than 10001.'] } },
          };
        const full = seen.url.searchParams.getAll('include[]').includes('contact_methods') && !options.referencesOnly;
        return {
          status: 200,
          headers: limits,
          body: {
            users: pageOf(org, offset, limit).map((person) => userOf(person, origin, full)),
            limit,
            offset,
            more: offset + limit < org.length,
            total: seen.url.searchParams.get('total') === 'true' ? org.length : null,
          },
        };
      }
      const user = /^\/users\/([^/]+)$/.exec(path);
      if (seen.method === 'GET' && user) {
        const person = byId.get(decodeURIComponent(user[1]!));
        if (!person) return { status: 404, headers: limits, body: { error: { message: 'Not Found', code: 2100 } } };
        return { status: 200, headers: limits, body: { user: userOf(person, origin, seen.url.searchParams.getAll('include[]').includes('contact_methods')) } };
      }
      const methods = /^\/users\/([^/]+)\/contact_methods$/.exec(path);
      if (seen.method === 'GET' && methods && options.contactMethodsApi !== false) {
        const person = byId.get(decodeURIComponent(methods[1]!));
        if (!person) return { status: 404, headers: limits, body: { error: { message: 'Not Found', code: 2100 } } };
        return { status: 200, headers: limits, body: { contact_methods: contactMethods(person, origin) } };
      }
      return { status: 404, headers: limits, body: { error: { message: 'Not Found', code: 2100 } } };
    },
  };
}

function contactMethods(person: OrgPerson, origin: string) {
  return [
    {
      id: `${person.id}E`,
      type: 'email_contact_method',
      summary: 'Work',
      self: `${origin}/users/${person.id}/contact_methods/${person.id}E`,
      label: 'Work',
      address: person.email,
    },
    ...person.phones.map((phone, at) => ({
      id: `${person.id}P${at}`,
      type: phone.method === 'sms' ? 'sms_contact_method' : 'phone_contact_method',
      summary: 'Mobile',
      self: `${origin}/users/${person.id}/contact_methods/${person.id}P${at}`,
      label: 'Mobile',
      country_code: Number(phone.cc),
      address: phone.number,
      enabled: phone.enabled,
      blacklisted: false,
    })),
  ];
}

function userOf(person: OrgPerson, origin: string, full: boolean) {
  const methods = contactMethods(person, origin);
  return {
    id: person.id,
    type: 'user',
    summary: person.name,
    self: `${origin}/users/${person.id}`,
    html_url: `https://acme.pagerduty.com/users/${person.id}`,
    name: person.name,
    email: person.email,
    time_zone: 'America/Lima',
    color: 'green',
    role: person.role,
    avatar_url: 'https://pd-static-assets.pagerduty.com/users/blank-avatar.png',
    description: null,
    invitation_sent: person.state === 'invited',
    job_title: 'Engineer',
    teams: [],
    contact_methods: full ? methods : methods.map(({ id, type, summary, self }) => ({ id, type: `${type}_reference`, summary, self })),
    notification_rules: [],
  };
}

/** PagerDuty's 429 (Rate Limits, "Reaching the limit"): the headers, or none ("there may be exceptional scenarios"). */
export const pagerdutyRateLimited = (
  headers: Readonly<Record<string, string>> = { 'ratelimit-limit': '960', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' },
): Answer => ({
  status: 429,
  headers,
  body: { error: { message: 'Rate Limit Exceeded', code: 2020 } },
});
