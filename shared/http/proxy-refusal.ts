import { ProxyError } from '../errors.ts';
import type { OutgoingRequest } from './types.ts';

/** The proxy variables as a process has them (lower case wins where both are set, as curl reads them). */
export type ProxyVariables = Readonly<Record<string, string | undefined>>;

/** Which proxy a request to `url` goes through: the variable as spelled, and the proxy's host without credentials. */
export interface ProxyInUse {
  readonly variable: string;
  readonly host: string;
}

/**
 * Whose rule picks the proxy for a URL: undici's EnvHttpProxyAgent (our transport on Node), or
 * the fetch of Bun or Deno, which read the variables themselves, each its own way.
 */
export type ProxyRule = 'node' | 'bun' | 'deno';

/**
 * The variables each rule reads for a URL, first found first. Node (undici, given only what
 * `proxySettings` reads): lower case first, an https URL falls back to HTTP_PROXY. Bun 1.4 and
 * Deno 2, as observed with a refusing proxy behind each spelling (test/shared/proxy-refusal-runtimes.test.ts):
 * neither lets an https URL use HTTP_PROXY, both read ALL_PROXY; Bun takes lower case first and
 * ALL_PROXY last, Deno upper case first and ALL_PROXY before the others.
 */
const READS: Record<ProxyRule, (https: boolean) => readonly string[]> = {
  node: (https) => [...(https ? ['https_proxy', 'HTTPS_PROXY'] : []), 'http_proxy', 'HTTP_PROXY'],
  bun: (https) => (https ? ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'] : ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY']),
  deno: (https) => ['ALL_PROXY', 'all_proxy', ...(https ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'])],
};

/** Every variable a rule may name, and NO_PROXY: what a runtime's environment is read for. */
export const PROXY_VARIABLES: readonly string[] = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'];

/**
 * The proxy a request to `url` goes through by `rule`: the variable as spelled and the proxy's
 * host. NO_PROXY is not read: this names the proxy that refused a request, and a request the
 * proxy refused went through it (see `bypassesProxy` for a 407 that came back as an answer).
 */
export function proxyInUse(env: ProxyVariables, url: string, rule: ProxyRule = 'node'): ProxyInUse | undefined {
  const variable = READS[rule](new URL(url).protocol === 'https:').find((name) => env[name]);
  if (variable === undefined) return undefined;
  const value = env[variable] ?? '';
  let host: string;
  try {
    // The host alone: the URL's user name and password are the proxy's credentials.
    host = new URL(value.includes('://') ? value : `http://${value}`).host;
  } catch {
    host = 'the proxy';
  }
  return { variable, host };
}

/**
 * Whether NO_PROXY (as curl, Bun and Deno read it: `*`, or hosts and domains, a leading dot or
 * none, an optional port) sends `url` past the proxy: then a 407 that came back was not the
 * named proxy's.
 */
export function bypassesProxy(env: ProxyVariables, url: string): boolean {
  const list = env['no_proxy'] || env['NO_PROXY'] || '';
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const portOf = port || (protocol === 'https:' ? '443' : '80');
  return list
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [, name = '', wanted] = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry.toLowerCase().replace(/^\*?\./, '.')) ?? [];
      if (wanted !== undefined && wanted !== portOf) return false;
      const bare = name.replace(/^\./, '');
      return bare !== '' && (host === bare || host.endsWith(`.${bare}`));
    });
}

/**
 * Each runtime's words for a proxy that refused, with the proxy's status where it gives one.
 * undici 8 (lib/dispatcher/proxy-agent.js): a plain HTTP request answered 407 ("Proxy
 * Authentication Required (407)") and a CONNECT answered anything but 200 ("Proxy response
 * (403) !== 200 when HTTP Tunneling"), somewhere in the `cause` chain of fetch's TypeError.
 * Bun 1.4: a CONNECT refused is "Proxy refused to open a tunnel: 407 …" (ERR_PROXY_TUNNEL).
 * Deno 2 (hyper-util's tunnel): "client error (Connect): proxy authentication required" for a
 * CONNECT answered 407, "unsuccessful tunnel" for any other status, which it does not give (0).
 * A plain request answered 403 or 502 by a forwarding proxy comes back as an answer: it cannot
 * be told from the service's own, so it stays the service's.
 */
const REFUSALS: readonly { pattern: RegExp; status?: number }[] = [
  { pattern: /^Proxy Authentication Required \((\d{3})\)/ },
  { pattern: /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/ },
  { pattern: /^Proxy refused to open a tunnel: (\d{3})\b/ },
  { pattern: /client error \(Connect\): proxy authentication required$/, status: 407 },
  { pattern: /client error \(Connect\): unsuccessful tunnel$/, status: 0 },
];

/** The proxy's status when `error` is a proxy's refusal, found through any `cause` chain; 0 where the runtime did not say it. */
export function proxyRefusalStatus(error: unknown): number | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const message = (current as { message?: unknown }).message;
    if (typeof message !== 'string') continue;
    for (const { pattern, status } of REFUSALS) {
      const found = pattern.exec(message);
      if (found) return status ?? Number(found[1]);
    }
  }
  return undefined;
}

/**
 * A 407 that came back as an answer, from a proxy none of the variables names (one that
 * intercepts traffic, or the service's own gateway): the Fetch standard turns it into a network
 * error without a reason ("If response's status is 407 ... and request's window is no-window,
 * return a network error"), which undici raises from `httpNetworkOrCacheFetch` with an empty
 * message. That function gives no other network error without a reason, so the frame and the
 * empty message together are the 407: a refusal, never "could not reach" nor "may have been done".
 */
export function answered407(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const { message, stack } = current as { message?: unknown; stack?: unknown };
    if ((message === '' || message === 'proxy authentication required') && typeof stack === 'string' && stack.includes('httpNetworkOrCacheFetch')) return true;
  }
  return false;
}

/** The refusal of a proxy no variable names: what to set instead. */
export function interceptedError(request: Pick<OutgoingRequest, 'url' | 'endpoint'>): ProxyError {
  const serviceHost = new URL(request.url).host;
  return new ProxyError(
    `A proxy between this machine and ${serviceHost} answered 407 Proxy Authentication Required; nothing reached the service. ` +
      `Set HTTPS_PROXY (or HTTP_PROXY for an http base) to that proxy with its credentials (http://user:password@proxy:port, each URL-encoded).`,
    { variable: '', host: '', status: 407 },
    { endpoint: request.endpoint },
  );
}

/** What to change, by what the proxy said. */
function advice(status: number, proxy: ProxyInUse | undefined, serviceHost: string): string {
  const where = proxy ? proxy.variable : 'the proxy variable you set';
  const at = proxy ? proxy.host : 'proxy:port';
  if (status === 407)
    return `It wants credentials: put the proxy's user name and password in ${where} (http://user:password@${at}, each URL-encoded), or name ${serviceHost} in NO_PROXY to connect directly.`;
  if (status === 403) return `Ask for ${serviceHost} to be allowed through the proxy, or name it in NO_PROXY to connect directly.`;
  if (status === 0)
    return `Ask for ${serviceHost} to be allowed through the proxy and check that the proxy can reach it, or name it in NO_PROXY to connect directly.`;
  return `Check that the proxy can reach ${serviceHost}, or name it in NO_PROXY to connect directly.`;
}

/**
 * The shared error for a proxy that refused: configuration, never retried, and never "may have
 * been done", since the request did not get past the proxy. `proxy` is the one the runtime's
 * rule names; where the variables cannot be read (Deno without --allow-env), none is named.
 * Status 0: the runtime said the proxy refused the tunnel, not with which status.
 */
export function proxyRefusedError(request: Pick<OutgoingRequest, 'url' | 'endpoint'>, status: number, proxy: ProxyInUse | undefined): ProxyError {
  const serviceHost = new URL(request.url).host;
  const said = status === 407 ? ' with 407 Proxy Authentication Required' : status === 0 ? '' : ` with ${status}`;
  const which = proxy ? `The proxy ${proxy.host} (from ${proxy.variable})` : 'The proxy';
  return new ProxyError(
    `${which} refused the request to ${serviceHost}${said}; nothing reached the service. ${advice(status, proxy, serviceHost)}`,
    { variable: proxy?.variable ?? '', host: proxy?.host ?? '', status },
    { endpoint: request.endpoint },
  );
}
