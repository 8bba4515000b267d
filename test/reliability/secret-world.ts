import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { demoSeed } from '../../sandbox/seed/demo.ts';
import type { Fault, Seed } from '../../sandbox/index.ts';
import type { ProxiedRequest } from '../support/key-proxy.ts';

/**
 * Recognisable keys for the secret tests: any text that holds one (or its first or last
 * twelve characters) is a leak. The sandbox accepts them: the seed below gives them to Acme.
 */
export const SECRET_KEY = 'SECRET-KEY-3f9a1c77-do-not-leak';
/** A second one, of a person who is not an org admin, for the service's own 403. */
export const SECRET_USER_KEY = 'SECRET-USERKEY-5be20d94-do-not-leak';
export const SECRETS = [SECRET_KEY, SECRET_USER_KEY] as const;

/** The demo world, with the secret keys added to Acme: Grace Hopper's (admin) and Alan Turing's (user). */
export function secretSeed(): Seed {
  return {
    ...demoSeed,
    organizations: demoSeed.organizations.map((org) =>
      org.id === 'org_acme'
        ? { ...org, apiKeys: [...org.apiKeys, { key: SECRET_KEY, personId: 'usr_grace' }, { key: SECRET_USER_KEY, personId: 'usr_alan' }] }
        : org,
    ),
  };
}

/** What each surface is expected to make of a fault. */
export interface Expected {
  /** The typed client's error class. */
  client: string;
  /** Zapier: the error's name, and for AppError its code. */
  zapier: string;
  /** Make: the MakeError type. */
  make: string;
}

/** An answer the sandbox gives instead of the real one (injected for one request), and what it should become. */
export interface FaultCase {
  name: string;
  answer(key: string): Omit<Fault, 'path' | 'method' | 'times'>;
  expected: Expected;
  /** True when the answer holds the key: the surface must remove it. */
  echoesKey: boolean;
  /** A 404: searches answer "nothing found" and unsubscribe "already gone" instead of failing. */
  notFound?: boolean;
}

const json = (status: number, text: string, headers?: Record<string, string>) => ({
  status,
  body: JSON.stringify([{ Error: text }]),
  ...(headers ? { headers } : {}),
});

/** The failure answers every operation of every surface meets (besides bad input, a network failure and the service's own 403/404). */
export const faultCases: readonly FaultCase[] = [
  {
    name: 'invalid key (400)',
    answer: () => json(400, 'API Key is not valid'),
    echoesKey: false,
    expected: { client: 'AuthenticationError', zapier: 'ExpiredAuthError', make: 'InvalidAccessTokenError' },
  },
  {
    name: 'org admin only (403)',
    answer: () => json(403, 'Only an org admin can do this'),
    echoesKey: false,
    expected: { client: 'PermissionError', zapier: 'AppError:permission', make: 'InvalidConfigurationError' },
  },
  {
    name: 'not found (404)',
    answer: () => json(404, 'Not found'),
    echoesKey: false,
    notFound: true,
    expected: { client: 'NotFoundError', zapier: 'AppError:not_found', make: 'DataError' },
  },
  {
    name: 'rate limited (429, Retry-After 3600)',
    answer: () => json(429, 'Rate limit exceeded', { 'retry-after': '3600' }),
    echoesKey: false,
    expected: { client: 'RateLimitError', zapier: 'ThrottledError', make: 'RateLimitError' },
  },
  {
    name: 'service fault (500)',
    answer: () => json(500, 'Internal error'),
    echoesKey: false,
    expected: { client: 'ServerError', zapier: 'ThrottledError', make: 'ConnectionError' },
  },
  {
    name: 'HTML instead of JSON (200)',
    answer: () => ({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><html><body><h1>Maintenance</h1></body></html>' }),
    echoesKey: false,
    expected: { client: 'InvalidResponseError', zapier: 'AppError:invalid_response', make: 'DataError' },
  },
  // The same failures, with a service text that quotes the key it was sent.
  {
    name: 'invalid key quoting the key (400)',
    answer: (key) => json(400, `API Key ${key} is not valid`),
    echoesKey: true,
    expected: { client: 'AuthenticationError', zapier: 'ExpiredAuthError', make: 'InvalidAccessTokenError' },
  },
  {
    name: 'refusal quoting the key (403)',
    answer: (key) => json(403, `The key ${key} may not do this`),
    echoesKey: true,
    expected: { client: 'PermissionError', zapier: 'AppError:permission', make: 'DataError' },
  },
  {
    name: 'not found quoting the key (404)',
    answer: (key) => json(404, `Nothing here for key ${key}`),
    echoesKey: true,
    notFound: true,
    expected: { client: 'NotFoundError', zapier: 'AppError:not_found', make: 'DataError' },
  },
  {
    name: 'rate limited quoting the key (429)',
    answer: (key) => json(429, `Rate limit exceeded for ${key}`, { 'retry-after': '3600' }),
    echoesKey: true,
    expected: { client: 'RateLimitError', zapier: 'ThrottledError', make: 'RateLimitError' },
  },
  {
    name: 'service fault quoting the key (500)',
    answer: (key) => json(500, `Internal error while checking ${key}`),
    echoesKey: true,
    expected: { client: 'ServerError', zapier: 'ThrottledError', make: 'ConnectionError' },
  },
  {
    name: 'plain-text gateway error quoting the key (502)',
    answer: (key) => ({ status: 502, contentType: 'text/plain', body: `Bad gateway: upstream refused X-APIKEY ${key}` }),
    echoesKey: true,
    expected: { client: 'ServerError', zapier: 'ThrottledError', make: 'ConnectionError' },
  },
  {
    name: 'HTML quoting the key (200)',
    answer: (key) => ({ status: 200, contentType: 'text/html', body: `<html><body>Maintenance. Your key ${key} will work again soon.</body></html>` }),
    echoesKey: true,
    expected: { client: 'InvalidResponseError', zapier: 'AppError:invalid_response', make: 'DataError' },
  },
  {
    name: 'truncated JSON quoting the key (200)',
    answer: (key) => ({ status: 200, body: `{"valid":true,"echo":"${key}","user":{"na` }),
    echoesKey: true,
    expected: { client: 'InvalidResponseError', zapier: 'AppError:invalid_response', make: 'DataError' },
  },
];

/** The X-APIKEY of each request, in order (undefined where none was sent). */
export function keysSent(requests: readonly ProxiedRequest[]): (string | undefined)[] {
  return requests.map((request) => request.apiKey);
}

/** What a key check makes of an answer: its status alone (shared `checksKey`, `status-only`). */
const KEY_REFUSED: Expected = { client: 'AuthenticationError', zapier: 'ExpiredAuthError', make: 'InvalidAccessTokenError' };
const KEY_VALID: Expected = { client: 'no error', zapier: 'no error', make: 'no error' };

/**
 * What `fault` should become at `endpoint`: the fault's own expectation, except at the key check,
 * where any 2xx is a valid key whatever the body, and a 403 is a refused key like a 400 or 401,
 * and at an action's write, where any 2xx is done.
 */
export function expectedAt(fault: FaultCase, endpoint: EndpointKey): Expected {
  const { status } = fault.answer('');
  // An action's write answered 2xx was done, whatever the body (assumption `created-id`); Make
  // alone cannot read JSON that does not parse (secrets-make.test.ts, answersInstead).
  if (endpoints[endpoint].successWhateverTheBody && status >= 200 && status < 300) return { ...fault.expected, client: 'no error', zapier: 'no error' };
  if (!endpoints[endpoint].checksKey) return fault.expected;
  if (status >= 200 && status < 300) return KEY_VALID;
  if (status === 403) return KEY_REFUSED;
  return fault.expected;
}
