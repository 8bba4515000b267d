import { ImlError, isTruthy, renderTemplate, type ImlScope } from '../iml/index.ts';
import { exchange, type IncomingResponse, type OutgoingRequest } from './http-exchange.ts';
import { MakeError, UnsupportedDirectiveError } from './make-error.ts';
import { sanitizedHeaders } from './sanitize.ts';

type Directives = Record<string, unknown>;

// What the generator may emit; anything else is refused loudly rather than half-run.
const REQUEST_KEYS = new Set(['url', 'method', 'headers', 'qs', 'body', 'type', 'log', 'response', 'baseUrl', 'followRedirects', 'followAllRedirects', 'temp']);
const RESPONSE_KEYS = new Set(['temp', 'valid', 'error', 'iterate', 'limit', 'output', 'data', 'metadata']);

export interface LogEntry {
  method: string;
  url: string;
  headers: Record<string, string>;
  statusCode?: number;
}

export interface ExecuteOptions {
  /** Replaces the service's origin (https://api.pagerly.io) in every URL: the sandbox in tests. */
  origin?: { from: string; to: string };
  timeoutMs?: number;
  log?: LogEntry[];
}

export interface Outcome {
  /** One per bundle (output per element when iterating). */
  bundles: unknown[];
  /** The `temp` collection after the request (its own `temp`, then `response.temp`), which the next request of a module's list sees. */
  temp: unknown;
  /** `response.data` (connection, attach), `response.metadata` (connection). */
  data: unknown;
  metadata: unknown;
}

function checkKeys(where: string, directives: Directives, allowed: ReadonlySet<string>) {
  for (const key of Object.keys(directives)) if (!allowed.has(key)) throw new UnsupportedDirectiveError(where, key);
}

/**
 * Base and module merged as Make documents: the module's settings win, headers and query
 * string merge key by key, `response` merges by directive, sanitize lists add up. `temp`
 * directives, the request's and the response's, merge key by key: "When specifying temp
 * directives in different requests and in the response section, the contents of the temp
 * collection are not overwritten, but instead merged" (Custom apps › temp:
 * developers.make.com/custom-apps-documentation/component-blocks/api/handling-responses/temp).
 */
export function withBase(base: Directives, module: Directives): Directives {
  const merged: Directives = { ...base, ...module };
  merged.headers = { ...(base.headers as object), ...(module.headers as object) };
  merged.qs = { ...(base.qs as object), ...(module.qs as object) };
  if (base.temp !== undefined || module.temp !== undefined) merged.temp = { ...(base.temp as object), ...(module.temp as object) };
  const baseResponse = (base.response ?? {}) as Directives;
  const moduleResponse = (module.response ?? {}) as Directives;
  merged.response = { ...baseResponse, ...moduleResponse };
  if (baseResponse.temp !== undefined && moduleResponse.temp !== undefined)
    (merged.response as Directives).temp = { ...(baseResponse.temp as object), ...(moduleResponse.temp as object) };
  const sanitize = [
    ...(((base.log as Directives | undefined)?.sanitize as string[]) ?? []),
    ...(((module.log as Directives | undefined)?.sanitize as string[]) ?? []),
  ];
  merged.log = { sanitize };
  return merged;
}

/**
 * `headers` and `qs` are collections in Make's schema (sources.json: "type": "object"); a header
 * given as one string, or a header value that is a list or a collection, has no documented
 * meaning, so the generator must not emit one and the runner refuses it.
 */
function collection(where: string, name: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new MakeError('RuntimeError', `${where}: ${name} must be a collection of names and values, not ${Array.isArray(value) ? 'a list' : typeof value}.`);
  return value as Record<string, unknown>;
}

function headerValues(where: string, value: unknown): Record<string, string> {
  const present = Object.entries(collection(where, 'headers', value)).filter(([, v]) => v !== undefined && v !== null);
  for (const [name, v] of present)
    if (typeof v === 'object') throw new MakeError('RuntimeError', `${where}: the header ${name} must be text, a number or true/false.`);
  return Object.fromEntries(present.map(([k, v]) => [k, String(v)]));
}

function buildRequest(where: string, directives: Directives, scope: ImlScope, options: ExecuteOptions): OutgoingRequest {
  const render = (key: string) => renderTemplate(directives[key], scope);
  const path = String(render('url') ?? '');
  const baseUrl = directives.baseUrl === undefined ? '' : String(render('baseUrl'));
  let url = path.startsWith('/') ? `${baseUrl}${path}` : path;
  if (!/^https?:\/\//.test(url)) throw new MakeError('RuntimeError', `${where}: the URL "${url}" is not absolute.`);
  if (options.origin && url.startsWith(options.origin.from)) url = options.origin.to + url.slice(options.origin.from.length);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(collection(where, 'qs', render('qs')))) {
    if (value === undefined || value === null) continue;
    for (const each of Array.isArray(value) ? value : [value]) query.append(name, String(each));
  }
  const method = String(render('method') ?? 'GET').toUpperCase();
  const headers = headerValues(where, render('headers'));
  const body = render('body');
  let encoded: string | undefined;
  if (method !== 'GET' && body !== undefined) {
    if (directives.type === 'text') encoded = typeof body === 'string' ? body : JSON.stringify(body);
    else {
      encoded = JSON.stringify(body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
  }
  const qs = query.toString();
  return { method, url: qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url, headers, body: encoded };
}

/**
 * Make's rules for an answer (Custom apps › Error handling, and the `valid` directive's page):
 * a 4xx or 5xx is always an error, whatever `valid` says ("When the service returns an HTTP
 * error, it is not possible to evaluate it as a success"); it takes the `error` directive's
 * entry for its status, else the general one. A 2xx or 3xx is valid unless `valid` gives a
 * false value; then its own `type` and `message` (or the fallback "Response marked as invalid.").
 */
export function failureOf(response: Directives, scope: ImlScope, statusCode: number): MakeError | undefined {
  if (statusCode >= 400) {
    const errors = (response.error ?? {}) as Directives;
    const forStatus = (errors[String(statusCode)] ?? {}) as Directives;
    const pick = (key: 'type' | 'message'): unknown => {
      const template = forStatus[key] ?? errors[key];
      return template === undefined ? undefined : renderTemplate(template, scope);
    };
    // Without an error directive Make shows the status code that came (the same page).
    return new MakeError(String(pick('type') ?? 'RuntimeError'), String(pick('message') ?? `HTTP ${statusCode}`), statusCode);
  }
  if (response.valid === undefined) return undefined;
  const rendered = renderTemplate(response.valid, scope);
  const directive = rendered !== null && typeof rendered === 'object' ? (rendered as Directives) : { condition: rendered };
  if (isTruthy(directive.condition)) return undefined;
  return new MakeError(String(directive.type ?? 'RuntimeError'), String(directive.message ?? 'Response marked as invalid.'), statusCode);
}

/**
 * `response.limit`: the most bundles a search returns (Best practices › Search modules: every
 * search has one, mapped from a `limit` parameter). An empty limit means none.
 */
function limitOf(where: string, value: unknown): number {
  if (value === undefined || value === null || value === '') return Infinity;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 0)
    throw new MakeError('DataError', `${where}: the limit must be a whole number of 0 or more, not "${String(value)}".`);
  return limit;
}

/** Runs one communication (already merged with the Base where Make merges it). */
export async function execute(where: string, directives: Directives, given: ImlScope, options: ExecuteOptions = {}): Promise<Outcome> {
  checkKeys(where, directives, REQUEST_KEYS);
  const response = (directives.response ?? {}) as Directives;
  checkKeys(`${where} response`, response, RESPONSE_KEYS);
  // A request's own `temp` is made before the request and joins the collection (the temp page's
  // example: `"temp": {"id": 123}, "url": "/user/{{temp.id}}"`).
  const scope: ImlScope =
    directives.temp === undefined ? given : { ...given, temp: { ...((given.temp ?? {}) as object), ...(renderTemplate(directives.temp, given) as object) } };
  const request = buildRequest(where, directives, scope, options);
  const sanitize = ((directives.log as Directives | undefined)?.sanitize as string[] | undefined) ?? [];
  const entry: LogEntry = { method: request.method, url: request.url, headers: sanitizedHeaders(request.headers, sanitize) };
  options.log?.push(entry);
  // Make's defaults: both true (sources.json of Make's schemas); GET is governed by the first, the rest by the second.
  const follow = request.method === 'GET' ? directives.followRedirects !== false : directives.followAllRedirects !== false;
  const answer = await exchange(request, options.timeoutMs ?? 40_000, follow);
  entry.statusCode = answer.statusCode;
  const answerScope: ImlScope = { ...scope, body: answer.body, headers: answer.headers, statusCode: answer.statusCode };
  try {
    return outcomeOf(where, response, answerScope, answer);
  } catch (error) {
    // An answer of a shape the app's IML cannot read is bad data from the service, as Make reports it.
    if (error instanceof ImlError)
      throw new MakeError('DataError', `Pagerly's answer has a shape the app does not expect: ${error.message}`, answer.statusCode);
    throw error;
  }
}

function outcomeOf(where: string, response: Directives, answerScope: ImlScope, answer: IncomingResponse): Outcome {
  // `temp` is evaluated after the request, before every other response directive (its page).
  const temp = response.temp === undefined ? undefined : renderTemplate(response.temp, answerScope);
  const responseScope: ImlScope = temp === undefined ? answerScope : { ...answerScope, temp: { ...((answerScope.temp ?? {}) as object), ...(temp as object) } };
  const failure = failureOf(response, responseScope, answer.statusCode);
  if (failure) throw failure;

  let bundles: unknown[];
  if (response.iterate !== undefined) {
    const container = renderTemplate(response.iterate, responseScope);
    if (!Array.isArray(container)) throw new MakeError('RuntimeError', `${where}: iterate did not give a list.`);
    bundles = container.map((item) => (response.output === undefined ? item : renderTemplate(response.output, { ...responseScope, item })));
    if (response.limit !== undefined) bundles = bundles.slice(0, limitOf(where, renderTemplate(response.limit, responseScope)));
  } else {
    const output = response.output === undefined ? answer.body : renderTemplate(response.output, responseScope);
    bundles = output === undefined ? [] : [output];
  }
  return {
    bundles,
    temp: responseScope.temp,
    data: response.data === undefined ? undefined : renderTemplate(response.data, responseScope),
    metadata: response.metadata === undefined ? undefined : renderTemplate(response.metadata, responseScope),
  };
}
