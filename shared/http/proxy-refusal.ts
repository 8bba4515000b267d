import { ProxyError } from '../errors.ts';
import type { HttpRequest } from './types.ts';

/** The proxy variables as a process has them (lower case wins where both are set, as curl reads them). */
export type ProxyVariables = Readonly<Record<string, string | undefined>>;

/** Which proxy a request to `url` goes through: the variable as spelled, and the proxy's host without credentials. */
export interface ProxyInUse {
  readonly variable: string;
  readonly host: string;
}

/** The spelling of a variable that is set, lower case first; undefined when neither is. */
function spelling(env: ProxyVariables, name: 'HTTPS_PROXY' | 'HTTP_PROXY'): string | undefined {
  const lower = name.toLowerCase();
  if (env[lower]) return lower;
  if (env[name]) return name;
  return undefined;
}

/**
 * The proxy undici's EnvHttpProxyAgent uses for `url`: HTTPS_PROXY for an https URL (HTTP_PROXY
 * where HTTPS_PROXY is not set), HTTP_PROXY for an http one. NO_PROXY is not read: this names the
 * proxy that refused a request, and a request the proxy refused went through it.
 */
export function proxyInUse(env: ProxyVariables, url: string): ProxyInUse | undefined {
  const https = new URL(url).protocol === 'https:';
  const variable = (https ? spelling(env, 'HTTPS_PROXY') : undefined) ?? spelling(env, 'HTTP_PROXY');
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
 * undici's words for a proxy that refused (undici 8, lib/dispatcher/proxy-agent.js): a plain HTTP
 * request answered 407 ("Proxy Authentication Required (407)"), and a CONNECT answered anything
 * but 200 ("Proxy response (403) !== 200 when HTTP Tunneling"), each somewhere in the `cause`
 * chain of fetch's TypeError. A plain request answered 403 or 502 by a forwarding proxy comes back
 * as an answer: it cannot be told from the service's own, so it stays the service's.
 */
const REFUSALS: readonly RegExp[] = [/^Proxy Authentication Required \((\d{3})\)/, /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/];

/** The proxy's status when `error` is a proxy's refusal, found through any `cause` chain. */
export function proxyRefusalStatus(error: unknown): number | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const message = (current as { message?: unknown }).message;
    if (typeof message !== 'string') continue;
    for (const pattern of REFUSALS) {
      const status = pattern.exec(message)?.[1];
      if (status !== undefined) return Number(status);
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
export function interceptedError(request: Pick<HttpRequest, 'url' | 'endpoint'>): ProxyError {
  const serviceHost = new URL(request.url).host;
  return new ProxyError(
    `A proxy between this machine and ${serviceHost} answered 407 Proxy Authentication Required; nothing reached the service. ` +
      `Set HTTPS_PROXY (or HTTP_PROXY for an http base) to that proxy with its credentials (http://user:password@proxy:port, each URL-encoded).`,
    { variable: '', host: '', status: 407 },
    { endpoint: request.endpoint },
  );
}

/** What to change, by what the proxy said. */
function advice(status: number, proxy: ProxyInUse, serviceHost: string): string {
  if (status === 407)
    return `It wants credentials: put the proxy's user name and password in ${proxy.variable} (http://user:password@${proxy.host}, each URL-encoded), or name ${serviceHost} in NO_PROXY to connect directly.`;
  if (status === 403) return `Ask for ${serviceHost} to be allowed through the proxy, or name it in NO_PROXY to connect directly.`;
  return `Check that the proxy can reach ${serviceHost}, or name it in NO_PROXY to connect directly.`;
}

/**
 * The shared error for a proxy that refused: configuration, never retried, and never "may have
 * been done", since the request did not get past the proxy.
 */
export function proxyRefusedError(request: Pick<HttpRequest, 'url' | 'endpoint'>, status: number, proxy: ProxyInUse): ProxyError {
  const serviceHost = new URL(request.url).host;
  const said = status === 407 ? '407 Proxy Authentication Required' : `${status}`;
  return new ProxyError(
    `The proxy ${proxy.host} (from ${proxy.variable}) refused the request to ${serviceHost} with ${said}; nothing reached the service. ${advice(status, proxy, serviceHost)}`,
    { ...proxy, status },
    { endpoint: request.endpoint },
  );
}
