import { retryAfterSeconds } from '../http/retry-after.ts';
import type { HttpResponse } from '../http/types.ts';

/** The services `directory import` reads people from, by the name the command takes. */
export const SOURCE_IDS = ['opsgenie', 'pagerduty', 'grafana-oncall'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * The environment variables the import reads each source's key and API base from, named as
 * the issue and the vendors' own tools name them. Pipelines set these: a name is public
 * contract (the CLI lists them in its `ENV`, and so in help and its interface report).
 */
export const SOURCE_ENV = {
  opsgenieApiKey: 'OPSGENIE_API_KEY',
  opsgenieApiUrl: 'OPSGENIE_API_URL',
  pagerdutyApiToken: 'PAGERDUTY_API_TOKEN',
  pagerdutyApiUrl: 'PAGERDUTY_API_URL',
  grafanaOncallApiToken: 'GRAFANA_ONCALL_API_TOKEN',
  grafanaOncallApiUrl: 'GRAFANA_ONCALL_API_URL',
} as const;

export const OPSGENIE_URL = 'https://api.opsgenie.com';
export const OPSGENIE_EU_URL = 'https://api.eu.opsgenie.com';
export const PAGERDUTY_URL = 'https://api.pagerduty.com';

/** What each variable does, as help and the interface report say it. */
export const SOURCE_ENV_USES: Readonly<Record<keyof typeof SOURCE_ENV, string>> = {
  opsgenieApiKey: 'directory import opsgenie: the key of an Opsgenie API integration (read access)',
  opsgenieApiUrl: `directory import opsgenie: the API base (default ${OPSGENIE_URL}; the EU instance: ${OPSGENIE_EU_URL})`,
  pagerdutyApiToken: 'directory import pagerduty: a PagerDuty REST API key (read-only is enough)',
  pagerdutyApiUrl: `directory import pagerduty: the API base (default ${PAGERDUTY_URL}; the EU service region: https://api.eu.pagerduty.com)`,
  grafanaOncallApiToken: 'directory import grafana-oncall: an OnCall API token (OnCall → Settings)',
  grafanaOncallApiUrl: 'directory import grafana-oncall: the OnCall API URL of the stack, as OnCall → Settings shows it (required)',
};

/** One page of a vendor's reference the import relies on: docs/migrate.md lists them all. */
export interface Reference {
  readonly what: string;
  readonly url: string;
}

export interface Source {
  readonly id: SourceId;
  /** As people write it: errors and the summary say it. */
  readonly name: string;
  /** The variable holding the key, and the one holding the API base. */
  readonly keyVariable: string;
  readonly urlVariable: string;
  /** The API base when `urlVariable` is not set; none where the base is the stack's own (Grafana OnCall). */
  readonly defaultUrl: string | undefined;
  /** A base to show in a message about a bad one. */
  readonly urlExample: string;
  /**
   * The path every request's path starts with (`/v2`, `/api/v1`): a base given with it (as the
   * vendor's reference writes its URLs) is read without it, so it is not asked for twice.
   */
  readonly apiPath: string | undefined;
  /** The headers that carry the key, and ask for the API's version, in the vendor's own form. */
  headers(key: string): Record<string, string>;
  /**
   * How long a refused answer (429, 503) asks to wait, in seconds, as the vendor says it; none:
   * the transport's backoff. Only whole seconds are read (retry-after.ts): a hostile value is none.
   */
  waitAskedBy(response: HttpResponse): number | undefined;
  /**
   * Whether an answer other than 401 is the vendor's own way of refusing the key itself (its
   * words: the body's message or detail), so that it names the key's variable as a 401 does.
   */
  keyRefused?(status: number, words: string): boolean;
  /** Where a person gets a key, for the message about one that was refused. */
  readonly keyHelp: string;
  /** Whether the source's users API gives phone numbers and display names. */
  readonly givesPhones: boolean;
  readonly givesNames: boolean;
  readonly references: readonly Reference[];
}

/** Retry-After's seconds, else those of the vendor's own header (`vendorHeader`, lower case). */
const waitFrom =
  (vendorHeader: string) =>
  (response: HttpResponse): number | undefined =>
    retryAfterSeconds(response.headers['retry-after']) ?? retryAfterSeconds(response.headers[vendorHeader]);

export const SOURCES: Readonly<Record<SourceId, Source>> = {
  opsgenie: {
    id: 'opsgenie',
    name: 'Opsgenie',
    keyVariable: SOURCE_ENV.opsgenieApiKey,
    urlVariable: SOURCE_ENV.opsgenieApiUrl,
    defaultUrl: OPSGENIE_URL,
    urlExample: OPSGENIE_URL,
    apiPath: '/v2',
    // "Authorization: GenieKey <key>" (the Contact API's samples; opsgenie-go-sdk-v2 client.go).
    headers: (key) => ({ Authorization: `GenieKey ${key}`, Accept: 'application/json' }),
    // Opsgenie documents no Retry-After: its answers carry X-RateLimit-Period-In-Sec ("time of
    // throttle in seconds", opsgenie-oas paths/user.yaml); waiting that long is the safe reading.
    waitAskedBy: waitFrom('x-ratelimit-period-in-sec'),
    // A key not of Opsgenie's form is answered 422 "Key format is not valid!" (its ErrorResponse;
    // opsgenie/opsgenie-lamp#50): the import only GETs, so a 422 has no body to be about.
    keyRefused: (status) => status === 422,
    keyHelp: `Use the key of an API integration (Opsgenie → Settings → Integrations → API) that is not restricted to access configurations; an EU account's base is ${OPSGENIE_EU_URL} (set ${SOURCE_ENV.opsgenieApiUrl}).`,
    givesPhones: true,
    givesNames: true,
    references: [
      {
        what: 'User API: the EU base; Get User with expand=contact (userContacts)',
        url: 'https://docs.opsgenie.com/docs/user-api',
      },
      { what: "Contact API: Authorization: GenieKey, a user's contact methods (List Contacts)", url: 'https://docs.opsgenie.com/docs/contact-api' },
      { what: 'Contacts API (deprecated): "to" of sms and voice as "1-9999999999"', url: 'https://docs.opsgenie.com/docs/contacts-api-deprecated' },
      {
        what: 'Pagination: offset, limit (default 20, at most 100), the next page in paging.next or the X-Paging-Next header',
        url: 'https://docs.opsgenie.com/docs/pagination',
      },
      { what: 'Rate limiting: 429 Too Many Requests', url: 'https://docs.opsgenie.com/docs/api-rate-limiting' },
      {
        what: 'User roles: Owner, Admin, (Default) User, Stakeholder; Observer on old plans',
        url: 'https://support.atlassian.com/opsgenie/docs/learn-user-roles-and-permissions/',
      },
      {
        what: "OpenAPI (opsgenie-oas): List users and its parameters, ListUsersResponse, UserRole, blocked, verified, ContactWithApplyOrder, Get User's expand and UserContact, ErrorResponse, the X-RateLimit and X-Paging headers",
        url: 'https://github.com/opsgenie/opsgenie-oas',
      },
      {
        what: "Go SDK (opsgenie-go-sdk-v2): client/client.go (header, retries of 429 and 5xx), user/user_result.go (the user's fields)",
        url: 'https://github.com/opsgenie/opsgenie-go-sdk-v2',
      },
    ],
  },
  pagerduty: {
    id: 'pagerduty',
    name: 'PagerDuty',
    keyVariable: SOURCE_ENV.pagerdutyApiToken,
    urlVariable: SOURCE_ENV.pagerdutyApiUrl,
    defaultUrl: PAGERDUTY_URL,
    urlExample: PAGERDUTY_URL,
    apiPath: undefined,
    // Authentication: "Authorization: Token token=<key>"; Versioning: the Accept header.
    headers: (key) => ({ Authorization: `Token token=${key}`, Accept: 'application/vnd.pagerduty+json;version=2' }),
    // Rate Limits: "the ratelimit-reset header will let you know how many seconds to wait".
    waitAskedBy: waitFrom('ratelimit-reset'),
    keyHelp: 'Use a REST API key (PagerDuty → Integrations → API Access Keys; read-only is enough) or a user API key.',
    givesPhones: true,
    givesNames: true,
    references: [
      {
        what: 'OpenAPI document (reference/REST/openapiv3.json): List users, include[], User (role enum, invitation_sent), PhoneContactMethod and WhatsAppContactMethod (country_code, address, enabled, blacklisted), Pagination, errors',
        url: 'https://github.com/PagerDuty/api-schema',
      },
      {
        what: 'REST API guides (docs/REST-API/): Authentication, Versioning, Pagination (100 a page, 10,000 in all), Rate Limits (ratelimit-reset), Errors',
        url: 'https://github.com/PagerDuty/developer-docs',
      },
      { what: 'REST API rate limits', url: 'https://support.pagerduty.com/main/docs/rest-api-rate-limits' },
    ],
  },
  'grafana-oncall': {
    id: 'grafana-oncall',
    name: 'Grafana OnCall',
    keyVariable: SOURCE_ENV.grafanaOncallApiToken,
    urlVariable: SOURCE_ENV.grafanaOncallApiUrl,
    defaultUrl: undefined,
    urlExample: 'https://oncall-prod-us-central-0.grafana.net/oncall',
    // The reference writes `{{API_URL}}/api/v1/users/`; a URL copied with its /api/v1 works too.
    apiPath: '/api/v1',
    // HTTP API reference, Authentication: the token alone in Authorization.
    headers: (key) => ({ Authorization: key, Accept: 'application/json' }),
    // The reference documents 429; Django REST framework's throttles answer with Retry-After, and
    // the engine adds RateLimit-Reset (common/api_helpers/mixins.py, RateLimitHeadersMixin).
    waitAskedBy: waitFrom('ratelimit-reset'),
    // The engine answers a token it does not know 403 {"detail": "Invalid token."}, not 401 (its
    // authentication classes give no authenticate_header, so Django REST framework turns 401
    // into 403: engine/apps/auth_token/auth.py); a 403 for a missing permission says "permission".
    keyRefused: (status, words) => status === 403 && !/permission/i.test(words),
    keyHelp: `Use an OnCall API token (OnCall → Settings → API tokens) of the stack ${SOURCE_ENV.grafanaOncallApiUrl} names.`,
    givesPhones: false,
    givesNames: false,
    references: [
      { what: 'Users HTTP API: List Users (id, email, username, role)', url: 'https://grafana.com/docs/oncall/latest/oncall-api-reference/users/' },
      {
        what: 'HTTP API reference: the Authorization header, pagination (count, next, results), rate limits (429)',
        url: 'https://grafana.com/docs/oncall/latest/oncall-api-reference/',
      },
      {
        what: 'Source (grafana/oncall, engine/): public_api/serializers/users.py (role from admin, editor, viewer), common/api_helpers/paginators.py (next as an absolute URL)',
        url: 'https://github.com/grafana/oncall',
      },
    ],
  },
};
