import { retryAfterSeconds } from '../http/retry-after.ts';
import type { HttpResponse } from '../http/types.ts';

/** The services `directory import` reads people from, by the name the command takes. */
export const SOURCE_IDS = ['opsgenie'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * The environment variables the import reads each source's key and API base from, named as
 * the issue and the vendors' own tools name them. Pipelines set these: a name is public
 * contract (the CLI lists them in its `ENV`, and so in help and its interface report).
 */
export const SOURCE_ENV = {
  opsgenieApiKey: 'OPSGENIE_API_KEY',
  opsgenieApiUrl: 'OPSGENIE_API_URL',
} as const;

export const OPSGENIE_URL = 'https://api.opsgenie.com';
export const OPSGENIE_EU_URL = 'https://api.eu.opsgenie.com';

/** What each variable does, as help and the interface report say it. */
export const SOURCE_ENV_USES: Readonly<Record<keyof typeof SOURCE_ENV, string>> = {
  opsgenieApiKey: 'directory import opsgenie: the key of an Opsgenie API integration (read access)',
  opsgenieApiUrl: `directory import opsgenie: the API base (default ${OPSGENIE_URL}; the EU instance: ${OPSGENIE_EU_URL})`,
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
  /** The headers that carry the key, and ask for the API's version, in the vendor's own form. */
  headers(key: string): Record<string, string>;
  /**
   * How long a refused answer (429, 503) asks to wait, in seconds, as the vendor says it; none:
   * the transport's backoff. Only whole seconds are read (retry-after.ts): a hostile value is none.
   */
  waitAskedBy(response: HttpResponse): number | undefined;
  /** Where a person gets a key, for the message about one that was refused. */
  readonly keyHelp: string;
  /** Whether the source's users API gives phone numbers and display names. */
  readonly givesPhones: boolean;
  readonly givesNames: boolean;
  readonly references: readonly Reference[];
}

const header = (response: HttpResponse, name: string) => response.headers[name];

export const SOURCES: Readonly<Record<SourceId, Source>> = {
  opsgenie: {
    id: 'opsgenie',
    name: 'Opsgenie',
    keyVariable: SOURCE_ENV.opsgenieApiKey,
    urlVariable: SOURCE_ENV.opsgenieApiUrl,
    defaultUrl: OPSGENIE_URL,
    urlExample: OPSGENIE_URL,
    // "Authorization: GenieKey <key>" (the Contact API's samples; opsgenie-go-sdk-v2 client.go).
    headers: (key) => ({ Authorization: `GenieKey ${key}`, Accept: 'application/json' }),
    // Opsgenie documents no Retry-After: its answers carry X-RateLimit-Period-In-Sec ("time of
    // throttle in seconds", opsgenie-oas paths/user.yaml); waiting that long is the safe reading.
    waitAskedBy: (response) => retryAfterSeconds(header(response, 'retry-after')) ?? retryAfterSeconds(header(response, 'x-ratelimit-period-in-sec')),
    keyHelp: `Use the key of an API integration (Opsgenie → Settings → Integrations → API) that is not restricted to access configurations; an EU account's base is ${OPSGENIE_EU_URL} (set ${SOURCE_ENV.opsgenieApiUrl}).`,
    givesPhones: true,
    givesNames: true,
    references: [
      {
        what: 'User API (the EU base; the List User section is not in the corpus this was built from: the two below stand in)',
        url: 'https://docs.opsgenie.com/docs/user-api',
      },
      { what: "Contact API: Authorization: GenieKey, a user's contact methods", url: 'https://docs.opsgenie.com/docs/contact-api' },
      { what: 'Contacts API (deprecated): "to" of sms and voice as "1-9999999999"', url: 'https://docs.opsgenie.com/docs/contacts-api-deprecated' },
      { what: 'Pagination: offset, limit (default 20, at most 100), paging.next in the body', url: 'https://docs.opsgenie.com/docs/pagination' },
      { what: 'Rate limiting: 429 Too Many Requests', url: 'https://docs.opsgenie.com/docs/api-rate-limiting' },
      {
        what: 'OpenAPI (opsgenie-oas): List users and its parameters, ListUsersResponse, UserRole, blocked, verified, ContactWithApplyOrder, ErrorResponse, X-RateLimit headers',
        url: 'https://github.com/opsgenie/opsgenie-oas',
      },
      {
        what: "Go SDK (opsgenie-go-sdk-v2): client/client.go (header, retries of 429 and 5xx), user/user_result.go (the user's fields)",
        url: 'https://github.com/opsgenie/opsgenie-go-sdk-v2',
      },
    ],
  },
};
