import { BODY_TOO_LARGE, bodyTooLarge } from '../http/answer-size.ts';
import { noAnswerError, RETRY_FAILURE_CODES, safeToResend, wasSent } from '../http/failure.ts';
import { followSameOriginRedirects, type Hop } from '../http/follow-redirects.ts';
import {
  answered407,
  bypassesProxy,
  interceptedError,
  PROXY_VARIABLES,
  type ProxyRule,
  proxyInUse,
  proxyRefusalStatus,
  proxyRefusedError,
} from '../http/proxy-refusal.ts';
import { retryAfterSeconds } from '../http/retry-after.ts';
import { type Trace, tracedHop } from '../http/trace.ts';
import type { HttpResponse, OutgoingRequest, Transport } from '../http/types.ts';
import { redact } from '../redact.ts';
import { TRANSPORT_DEFAULTS } from './defaults.ts';
import type { RetryNotice } from './retry-notice.ts';

export type { RetryNotice } from './retry-notice.ts';

/** The proxy variables, as curl and undici read them (lower case wins where both are set). */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface FetchTransportOptions {
  /** Whole-request time limit per attempt, the body included; default 15 s (assumption `limits`). */
  timeoutMs?: number;
  /**
   * The most bytes of one answer read; default 64 MiB. An answer that keeps coming (a hostile or
   * broken service, a proxy) is cut off there, not held until the process runs out of memory.
   */
  maxBodyBytes?: number;
  /** Extra attempts after the first; default 2. */
  retries?: number;
  /** First backoff delay, doubled each attempt; default 500 ms. */
  backoffMs?: number;
  /** A longer `Retry-After` is not waited for: the caller gets the RateLimitError instead. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Told before each retry; never given the request, whose headers carry the key. */
  onRetry?: (retry: RetryNotice) => void;
  /** Aborts the request in flight, and any wait before a retry. */
  signal?: AbortSignal | undefined;
  /**
   * Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read on Node (default: `process.env`).
   * Bun and Deno read them in their own fetch.
   */
  proxyEnv?: ProxyEnv | undefined;
  /** Given one entry per attempt and redirect hop, headers without the key, never a body (http/trace.ts). */
  trace?: Trace | undefined;
}

/**
 * The sender's options: the transport's, and how long a refused answer asks to wait, in seconds
 * (`Retry-After` by default). Another service's API says it in its own header (PagerDuty's
 * `ratelimit-reset`), which the directory import reads through this.
 */
export interface FetchSenderOptions extends FetchTransportOptions {
  waitAskedBy?: (response: HttpResponse) => number | undefined;
}

/** What sends a request to another service than Pagerly, by the same rules (types.ts `OutgoingRequest`). */
export interface FetchSender {
  send(request: OutgoingRequest): Promise<HttpResponse>;
}

const retryAfterHeader = (response: HttpResponse): number | undefined => retryAfterSeconds(response.headers['retry-after']);

/** A proxy's status: the service itself never answers it (the Fetch standard treats it as a network error). */
const PROXY_AUTHENTICATION_REQUIRED = 407;

// Statuses worth a second try; which requests may have one is `safeToResend`'s (failure.ts) call.
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * undici (Node's fetch) names a socket closed under it UND_ERR_SOCKET; the rest of the project
 * (messages, retry rules, the docs) speaks the system's names, as got does.
 */
const CODE_NAMES: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
  // Bun's names for the same failures.
  ConnectionRefused: 'ECONNREFUSED',
  ConnectionReset: 'ECONNRESET',
  ConnectionClosed: 'ECONNRESET',
};

/** The shared list of failures worth a retry (failure.ts), as a set. */
const RETRY_CODES: ReadonlySet<string> = new Set(RETRY_FAILURE_CODES);

/** What one attempt's failure was, before it becomes the shared error. */
interface Failure {
  code: string | undefined;
  timedOut: boolean;
  aborted: boolean;
  detail: string;
}

type FetchLike = (url: string, init: RequestInit & { dispatcher?: unknown }) => Promise<Response>;

/**
 * The typed client's transport on the platform's own `fetch` (Node 22 and later, Bun, Deno):
 * the same rules as got-transport.ts. Redirects are not followed by fetch (`redirect: 'manual'`)
 * but by the shared rule, only to the origin that answered; a time limit covers each attempt,
 * body included, so a stalled body cannot hang; requests that could do the work twice are not
 * repeated; `Retry-After` is honoured up to a ceiling; no error carries the key. On Node, a
 * proxy named in HTTPS_PROXY or HTTP_PROXY is used (NO_PROXY honoured) through undici's
 * EnvHttpProxyAgent, loaded only then, since Node's own fetch ignores those variables.
 */
export function fetchTransport(options: FetchTransportOptions = {}): Transport {
  return fetchSender(options);
}

/** The transport's sender, for any request of `OutgoingRequest`'s shape; `fetchTransport` is it for Pagerly's. */
export function fetchSender(options: FetchSenderOptions = {}): FetchSender {
  const waitAskedBy = options.waitAskedBy ?? retryAfterHeader;
  const timeoutMs = options.timeoutMs ?? TRANSPORT_DEFAULTS.timeoutMs;
  const backoffMs = options.backoffMs ?? TRANSPORT_DEFAULTS.backoffMs;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? TRANSPORT_DEFAULTS.maxRetryAfterMs;
  const attempts = (options.retries ?? TRANSPORT_DEFAULTS.retries) + 1;
  const maxBodyBytes = options.maxBodyBytes ?? TRANSPORT_DEFAULTS.maxBodyBytes;
  let fetcher: Promise<FetchLike> | undefined;

  return {
    async send(request: OutgoingRequest): Promise<HttpResponse> {
      const env = proxyEnvOf(options.proxyEnv);
      fetcher ??= fetchFor(env);
      const doFetch = await fetcher;
      const secrets = Object.values(request.headers);
      for (let attempt = 1; ; attempt++) {
        let response: HttpResponse;
        try {
          response = await followSameOriginRedirects(request, (hop) =>
            tracedHop(options.trace, request, hop, () => sendOnce(doFetch, request, hop, timeoutMs, options.signal, maxBodyBytes), env),
          );
        } catch (error) {
          // A proxy's refusal: the request never got past it, and a retry meets the same answer.
          const refused = proxyRefusalStatus(error);
          if (refused !== undefined) throw proxyRefusedError(request, refused, proxyInUse(env, request.url, proxyRule()));
          if (answered407(error)) throw interceptedError(request);
          const failure = failureOf(error, secrets);
          const sent = failure.aborted ? true : undefined;
          const retryable = !failure.aborted && failure.code !== undefined && RETRY_CODES.has(failure.code);
          const safe = request.idempotent || !wasSent({ code: failure.code, sent });
          if (attempt < attempts && retryable && safe) {
            const delayMs = backoffMs * 2 ** (attempt - 1);
            options.onRetry?.({ attempt: attempt + 1, of: attempts, delayMs, ...(failure.code === undefined ? {} : { code: failure.code }) });
            await wait(delayMs, options.signal, request);
            continue;
          }
          throw noAnswerError(request, {
            code: failure.code ?? (failure.aborted ? 'ERR_CANCELED' : undefined),
            timedOut: failure.timedOut,
            sent,
            detail: failure.detail,
            timeoutMs,
            retryAdvice: failure.timedOut ? "Try again; if it keeps happening, check the service's status." : 'Check the network and the base URL.',
          });
        }
        // Bun's and Deno's fetch give a 407 back as an answer where Node's raises it (answered407):
        // a proxy's refusal all the same, never the service's word; the proxy their own rule
        // picked is named, unless NO_PROXY sent the request past it.
        if (response.status === PROXY_AUTHENTICATION_REQUIRED) {
          const proxy = bypassesProxy(env, request.url) ? undefined : proxyInUse(env, request.url, proxyRule());
          throw proxy ? proxyRefusedError(request, PROXY_AUTHENTICATION_REQUIRED, proxy) : interceptedError(request);
        }
        if (attempt < attempts && RETRY_STATUSES.has(response.status) && safeToResend(response.status, request.idempotent)) {
          const retryAfter = waitAskedBy(response);
          // A Retry-After beyond the ceiling is the caller's to see (a RateLimitError that says when), not to sit through.
          if (retryAfter === undefined || retryAfter * 1000 <= maxRetryAfterMs) {
            const delayMs = retryAfter === undefined ? backoffMs * 2 ** (attempt - 1) : retryAfter * 1000;
            options.onRetry?.({ attempt: attempt + 1, of: attempts, delayMs, status: response.status });
            await wait(delayMs, options.signal, request);
            continue;
          }
        }
        return response;
      }
    },
  };
}

/** One hop: fetch with redirects off, the body read whole inside the same time limit. */
async function sendOnce(
  doFetch: FetchLike,
  request: OutgoingRequest,
  hop: Hop,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  maxBodyBytes: number,
): Promise<HttpResponse> {
  const url = new URL(hop.url);
  if (hop.first) for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
  const limit = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = { ...request.headers };
  // A 303 turns the request into a GET: its body, and the type of that body, stay behind.
  if (hop.body === undefined) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
  const response = await doFetch(url.href, {
    method: hop.method,
    headers,
    ...(hop.body === undefined ? {} : { body: hop.body }),
    redirect: 'manual',
    signal: signal ? AbortSignal.any([limit, signal]) : limit,
  });
  const announced = response.headers.get('content-length');
  let body: string;
  try {
    body = await boundedText(response, maxBodyBytes);
  } catch (error) {
    if ((error as { code?: unknown }).code === BODY_TOO_LARGE) throw error;
    // A body cut short after a Content-Length was announced: the name got gives the same fault.
    if (announced !== null && !limit.aborted && !signal?.aborted)
      throw Object.assign(new Error('Content-Length mismatch'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH', cause: error });
    throw error;
  }
  return { status: response.status, url: hop.url, headers: headersOf(response.headers), body };
}

/** The body as text, read no further than `max` bytes: past it the connection is dropped and the request fails. */
async function boundedText(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(max);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Headers as got gives them: lower-case names, Set-Cookie as a list. */
function headersOf(headers: Headers): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
  if (cookies.length) result['set-cookie'] = cookies;
  return result;
}

/** The error's code, whether it was the time limit or the caller's signal, and its words without the key. */
function failureOf(error: unknown, secrets: readonly string[]): Failure {
  const { name, message = '', cause } = (error ?? {}) as { name?: string; message?: string; cause?: unknown };
  if (name === 'TimeoutError') return { code: 'ETIMEDOUT', timedOut: true, aborted: false, detail: '' };
  if (name === 'AbortError') return { code: undefined, timedOut: false, aborted: true, detail: 'cancelled' };
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  const ownCode = (error as { code?: unknown } | undefined)?.code;
  const raw = typeof ownCode === 'string' ? ownCode : typeof causeCode === 'string' ? causeCode : undefined;
  const code = raw === undefined ? undefined : (CODE_NAMES[raw] ?? raw);
  const causeMessage = (cause as { message?: unknown } | undefined)?.message;
  const words = ownCode === undefined && typeof causeMessage === 'string' && causeMessage ? causeMessage : message;
  // "fetch failed" says nothing the code does not.
  const detail = words === 'fetch failed' ? '' : redact(words, secrets);
  return { code, timedOut: code === 'ETIMEDOUT', aborted: false, detail };
}

/** The wait before a retry, cut short by the caller's signal (then the request is abandoned, as got does). */
function wait(ms: number, signal: AbortSignal | undefined, request: OutgoingRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const abandon = () => {
      clearTimeout(timer);
      reject(
        noAnswerError(request, { code: 'ERR_CANCELED', timedOut: false, sent: true, detail: 'cancelled', retryAdvice: 'Check the network and the base URL.' }),
      );
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abandon);
      resolve();
    }, ms);
    if (signal?.aborted) abandon();
    else signal?.addEventListener('abort', abandon, { once: true });
  });
}

/** Whether this is Node itself: Bun and Deno say they are Node too, and their fetch reads the proxy variables already. */
function onNode(): boolean {
  const runtime = globalThis as { process?: { versions?: Record<string, string | undefined> }; Deno?: unknown; Bun?: unknown };
  return runtime.process?.versions?.node !== undefined && runtime.Deno === undefined && runtime.Bun === undefined && runtime.process.versions.bun === undefined;
}

/** Whose rule picks the proxy here: undici's on Node, else the runtime's own fetch's. */
function proxyRule(): ProxyRule {
  const runtime = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: Record<string, string | undefined> } };
  if (runtime.Deno !== undefined) return 'deno';
  if (runtime.Bun !== undefined || runtime.process?.versions?.bun !== undefined) return 'bun';
  return 'node';
}

interface DenoEnv {
  env: { get(name: string): string | undefined };
  permissions: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

/**
 * The proxy variables as Bun's or Deno's fetch reads them, to name the proxy that refused. Deno
 * asks the user before a variable is read: only those already granted are read, never prompting
 * (without --allow-env a refusal names no variable).
 */
function runtimeProxyEnv(): ProxyEnv {
  const deno = (globalThis as { Deno?: DenoEnv }).Deno;
  if (deno === undefined) return (globalThis as { process?: { env?: ProxyEnv } }).process?.env ?? {};
  const env: Record<string, string> = {};
  for (const name of PROXY_VARIABLES)
    try {
      if (deno.permissions.querySync?.({ name: 'env', variable: name }).state !== 'granted') continue;
      const value = deno.env.get(name);
      if (value !== undefined) env[name] = value;
    } catch {
      // Not readable here: the refusal is told without its variable.
    }
  return env;
}

/**
 * The proxy variables set, by their usual spellings (lower case first, as curl reads them);
 * undefined when no proxy is. Each is given even when empty, so undici reads nothing more from
 * process.env than the caller's `proxyEnv` holds.
 */
export function proxySettings(env: ProxyEnv): { httpProxy: string; httpsProxy: string; noProxy: string } | undefined {
  const read = (name: string) => env[name.toLowerCase()] || env[name] || '';
  const httpProxy = read('HTTP_PROXY');
  const httpsProxy = read('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: read('NO_PROXY') };
}

/** The Node that undici 8, the proxy's agent, loads on; an older one fails inside undici with a TypeError. */
const PROXY_MIN_NODE = [22, 19] as const;

/**
 * Behind a proxy on a Node older than undici 8 takes (the package claims 22.19, but npm only
 * warns), a message that says what to change rather than undici's "Cannot read properties of
 * undefined (reading 'bind')" from deep in its module.
 */
export function proxyNeedsNode(variable: string): void {
  const version = (globalThis as unknown as { process: { versions: { node: string } } }).process.versions.node;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = PROXY_MIN_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return;
  throw new Error(
    `${variable} is set, and requests through a proxy need Node.js ${needMajor}.${needMinor} or later (undici 8); this is Node ${version}. ` +
      `Run on a newer Node, or unset ${variable} to connect directly.`,
  );
}

/**
 * The platform's fetch, or on Node behind a proxy undici's fetch with its EnvHttpProxyAgent
 * (the fetch of the same undici as the agent: Node's built-in one is another version).
 */
/**
 * Where the proxy variables are read: the caller's, or the process's. On Bun and Deno their own
 * fetch uses them; here they only name the proxy that refused.
 */
const proxyEnvOf = (proxyEnv: ProxyEnv | undefined): ProxyEnv =>
  proxyEnv ?? (onNode() ? (globalThis as unknown as { process: { env: ProxyEnv } }).process.env : runtimeProxyEnv());

async function fetchFor(env: ProxyEnv): Promise<FetchLike> {
  const proxy = onNode() ? proxySettings(env) : undefined;
  if (!proxy) return globalThis.fetch as FetchLike;
  proxyNeedsNode(proxy.httpsProxy ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  const loaded = await import('undici');
  // undici is CommonJS: a bundle (the CLI package) gives only its `default`, Node gives both.
  const undici = (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
  const dispatcher = new undici.EnvHttpProxyAgent(proxy);
  return (url, init) => undici.fetch(url, { ...init, dispatcher } as Parameters<typeof undici.fetch>[1]) as unknown as Promise<Response>;
}
