import * as z from 'zod/mini';
import { endpoints, type EndpointKey, type Endpoints } from '../catalog/endpoints.ts';
import { fillPath, type InputOf } from '../catalog/endpoint.ts';
import { AuthenticationError, InvalidInputError } from '../errors.ts';
import { resolveBases, type ApiSettings, type Bases } from '../settings.ts';
import { check, describeProblems } from '../validation.ts';
import { API_KEY_HEADER, type HttpRequest } from './types.ts';

const DEFAULT_USER_AGENT = 'pagerly-connectors';
// A header value with control or non-ASCII characters would be refused by Node after we
// had built an error around it; refuse it first, without repeating the value.
export const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** The key as it is sent (trimmed), or an AuthenticationError that says what to fix; no call is made. */
export function usableApiKey(apiKey: unknown): string {
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') {
    throw new AuthenticationError('The API key must be text; copy it again from the dashboard (API keys).');
  }
  const key = apiKey?.trim();
  if (!key) {
    throw new AuthenticationError('No API key was given. An org admin generates one in the dashboard (API keys); it acts as the person who created it.');
  }
  if (!HEADER_SAFE.test(key)) {
    throw new AuthenticationError('The API key contains spaces or characters an API key cannot have; copy it again from the dashboard.');
  }
  return key;
}

/**
 * The endpoint's input as it will be sent, or the InvalidInputError that says what to fix.
 * `partial`: only the fields given are checked (an update that fills the others in later).
 */
export function checkInput(
  key: EndpointKey,
  input: unknown,
  { partial = false, summary = endpoints[key].summary }: { partial?: boolean; summary?: string } = {},
): Record<string, unknown> {
  const endpoint = endpoints[key];
  const schema = partial ? z.partial(endpoint.input as z.ZodMiniObject) : endpoint.input;
  const checked = check(schema, input ?? {});
  if (!checked.ok) {
    throw new InvalidInputError(`Cannot ${summary.toLowerCase()}: ${describeProblems(checked.problems)}.`, checked.problems, 'input', {
      endpoint: key,
    });
  }
  const fields = checked.value as Record<string, unknown>;
  // Text with a broken surrogate pair cannot be sent as a URL or as UTF-8; say which field.
  const broken = Object.entries(fields)
    .filter(([, value]) => typeof value === 'string' && !value.isWellFormed())
    .map(([field]) => field);
  if (broken.length) {
    const problems = broken.map((field) => ({ field, problem: 'contains a broken character (an unpaired surrogate); retype it' }));
    throw new InvalidInputError(`Cannot ${summary.toLowerCase()}: ${describeProblems(problems)}.`, problems, 'input', { endpoint: key });
  }
  return fields;
}

/**
 * Validates the input against the endpoint's schema and places each field by the
 * catalog's rule: `{name}` path segments first, then the query (GET, DELETE) or the JSON body (POST).
 */
export function buildRequest<K extends EndpointKey>(
  key: K,
  input: InputOf<Endpoints[K]> | unknown,
  settings: ApiSettings,
  bases: Bases = resolveBases(settings),
  summary?: string,
): HttpRequest {
  const endpoint = endpoints[key];
  const apiKey = usableApiKey(settings.apiKey);
  const fields: Record<string, unknown> = { ...checkInput(key, input, summary === undefined ? {} : { summary }) };
  const path = fillPath(endpoint.path, (name) => {
    const value = String(fields[name]);
    delete fields[name];
    return encodeURIComponent(value);
  });
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  const hasBody = endpoint.method === 'POST';
  const headers: Record<string, string> = {
    [API_KEY_HEADER]: apiKey,
    Accept: 'application/json',
    'User-Agent': settings.userAgent ?? DEFAULT_USER_AGENT,
  };
  if (hasBody) headers['Content-Type'] = 'application/json';
  return {
    endpoint: key,
    method: endpoint.method,
    url: `${bases[endpoint.base]}${path}`,
    query: hasBody ? {} : Object.fromEntries(present.map(([name, value]) => [name, String(value)])),
    headers,
    body: hasBody ? JSON.stringify(Object.fromEntries(present)) : undefined,
    idempotent: endpoint.idempotent,
    ...(summary === undefined ? {} : { summary }),
  };
}

/** The URL with its query string, for transports that take one string. */
export function urlWithQuery(request: Pick<HttpRequest, 'url' | 'query'>): string {
  const query = new URLSearchParams(request.query).toString();
  return query ? `${request.url}?${query}` : request.url;
}
