import { InvalidInputError } from './errors.ts';
import type { BaseName } from './catalog/endpoint.ts';

/**
 * The environment variable a process that runs on the user's machine (the CLI, `pagerly mcp`)
 * takes the key from: scripts, CI secrets and MCP hosts' configurations name it.
 */
export const API_KEY_ENV = 'PAGERLY_API_KEY';

/** Assumption `bases`: the documented public bases. */
export const DEFAULT_BASE_URL = 'https://api.pagerly.io';
export const ROTATIONS_SEGMENT = '/pagerly';

export interface ApiSettings {
  /** Sent as `X-APIKEY`; acts as the person who generated it. Never logged. */
  apiKey: string;
  /** API base; default `https://api.pagerly.io`. */
  baseUrl?: string | undefined;
  /** Base of `allteams` and `currentusers`; default: the API base + `/pagerly`. */
  rotationsBaseUrl?: string | undefined;
  userAgent?: string | undefined;
}

export type Bases = Readonly<Record<BaseName, string>>;

/** A base URL as requests are made from it, or the InvalidInputError naming `setting`; `example` shows a good one. */
export function checkedBase(value: string, setting: string, example = DEFAULT_BASE_URL): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidInputError(`${setting} must be an http or https URL, e.g. ${example}`, [{ field: setting, problem: 'is not a URL' }], 'input');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidInputError(`${setting} must be an http or https URL, e.g. ${example}`, [{ field: setting, problem: 'is not http or https' }], 'input');
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new InvalidInputError(
      `${setting} must be an http or https URL without a query, fragment or credentials, e.g. ${example}`,
      [{ field: setting, problem: 'has a query, fragment or credentials' }],
      'input',
    );
  }
  // The parsed form: dot segments resolved, so the endpoint path is appended where it belongs.
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export function resolveBases(settings: Pick<ApiSettings, 'baseUrl' | 'rotationsBaseUrl'>): Bases {
  const api = checkedBase(settings.baseUrl?.trim() || DEFAULT_BASE_URL, 'baseUrl');
  const rotations = settings.rotationsBaseUrl?.trim() ? checkedBase(settings.rotationsBaseUrl.trim(), 'rotationsBaseUrl') : `${api}${ROTATIONS_SEGMENT}`;
  return { api, rotations };
}
