import { fillPath, type Endpoint } from '../../shared/catalog/endpoint.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import type { InputField } from '../../shared/operations/types.ts';
import { optionalParameter, phoneParameter } from './iml-expressions.ts';
import { keyHeader, keyTemp, type KeyVariable } from './iml-key.ts';

/** `request.headers.x-apikey` written as Make's examples write hyphenated names (Make lower-cases header names in its logs). */
export const SANITIZE_KEY = { sanitize: [`request.headers.\`${API_KEY_HEADER.toLowerCase()}\``] };

/**
 * Make follows 3xx answers by default, GET and non-GET alike (`followRedirects` and
 * `followAllRedirects`, both "default": true in Make's own schema, sources.json of the Make
 * Apps Editor), and nothing says it drops a custom header such as X-APIKEY on the way. Every
 * request that carries the key turns both off: a redirect ends as the 3xx it is, in the
 * response handling, and the key goes to no other host.
 */
export const NO_REDIRECTS = { followRedirects: false, followAllRedirects: false } as const;

/** The endpoint's path as Make sees it: relative to the base (rotations endpoints under `/pagerly`), `{id}` as IML. */
export function relativeUrl(endpoint: Endpoint, params: (name: string) => string = (name) => `{{parameters.${name}}}`): string {
  const prefix = endpoint.base === 'rotations' ? ROTATIONS_SEGMENT : '';
  return `${prefix}${fillPath(endpoint.path, params)}`;
}

/**
 * Requests outside modules and RPCs (the connection check, webhook attach and detach) do not
 * rely on the Base: absolute URL, their own key header, sanitizing and error handling.
 */
export function standalone(
  key: EndpointKey,
  apiKey: KeyVariable,
  request: Record<string, unknown>,
  pathParams: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  return {
    url: `${DEFAULT_BASE_URL}${relativeUrl(endpoints[key], (name) => pathParams[name] ?? `{{parameters.${name}}}`)}`,
    method: endpoints[key].method,
    temp: keyTemp(apiKey),
    headers: { [API_KEY_HEADER]: keyHeader(), Accept: 'application/json' },
    ...NO_REDIRECTS,
    ...request,
    log: SANITIZE_KEY,
  };
}

/**
 * Each field as IML: optional ones left out when empty, phone numbers cleaned of separators.
 * `kept`: an optional field left empty takes this IML value instead (an update that keeps it).
 */
export function fieldValues(fields: readonly InputField[], kept?: (name: string) => string): Record<string, string> {
  return Object.fromEntries(
    fields.map((field) => {
      if (field.type === 'phone') return [field.key, phoneParameter(field.key, field.required ? undefined : kept?.(field.key))];
      // An address is trimmed, as the shared rule does on every other surface.
      if (field.type === 'email' && field.required) return [field.key, `{{trim(toString(parameters.${field.key}))}}`];
      if (field.required) return [field.key, `{{parameters.${field.key}}}`];
      return [field.key, kept ? `{{ifempty(parameters.${field.key}, ${kept(field.key)})}}` : optionalParameter(field.key)];
    }),
  );
}

/** A module's request for one endpoint: fields in the body (POST) or the query (GET, DELETE). */
export function endpointRequest(endpoint: Endpoint, fields: readonly InputField[], kept?: (name: string) => string): Record<string, unknown> {
  const { method } = endpoint;
  const values = fieldValues(fields, kept);
  return { url: relativeUrl(endpoint), method, ...(method === 'POST' ? { body: values } : Object.keys(values).length ? { qs: values } : {}) };
}
