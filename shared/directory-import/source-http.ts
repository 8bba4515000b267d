import {
  AuthenticationError,
  InvalidResponseError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RedirectError,
  RequestError,
  ServerError,
  type PagerlyError,
} from '../errors.ts';
import { parseJsonAnswer } from '../http/json.ts';
import { REDIRECT_STATUSES, redirectTarget } from '../http/redirect.ts';
import { retryWhen } from '../http/retry-after.ts';
import type { HttpResponse, OutgoingRequest } from '../http/types.ts';
import { excerpt, redact } from '../redact.ts';
import type { FetchSender } from '../transports/fetch-transport.ts';
import { objectOf } from './source-person.ts';
import type { Source } from './sources.ts';

/**
 * The one way the import speaks to a source: GETs of the source's own base, with its key in
 * the vendor's header, through the shared fetch transport (time limits, retries of 429 and
 * 5xx, redirects only to the same origin, proxies, the trace with the key redacted). A link the
 * source hands back (a `next` page) is read for its query only, asked of the configured base
 * (nextPage), so the key goes nowhere else; every other answer becomes the shared error that
 * names the variable to fix.
 */
export class SourceHttp {
  readonly source: Source;
  /** The base requests are made from (checked: http or https, no query). */
  readonly base: string;
  private readonly origin: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: readonly string[];
  private readonly sender: FetchSender;
  /** Requests answered, for the summary. */
  requests = 0;
  /** What the summary should say of how the source was read (a link that named another place). */
  readonly notes: string[] = [];
  private readonly moved = new Set<string>();

  constructor(options: { source: Source; base: string; key: string; userAgent: string; sender: FetchSender }) {
    this.source = options.source;
    this.base = options.base;
    this.origin = new URL(options.base).origin;
    const keyHeaders = options.source.headers(options.key);
    this.headers = { ...keyHeaders, 'User-Agent': options.userAgent };
    this.secrets = [options.key, ...Object.values(keyHeaders)];
    this.sender = options.sender;
  }

  /** `path` under the base (`/v2/users`), with its query. */
  url(path: string, query: Readonly<Record<string, string>> = {}): URL {
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  /**
   * The next page a link of the source names (`what` says where: `paging.next`), asked of the
   * list's own URL (`list`, on the configured base) with the link's query: the link's host,
   * scheme, port and path are never used, so the key goes to the configured base only. A
   * source's links name another origin for good reasons (an engine behind a proxy writes its
   * own base URL, `http` where the proxy speaks `https`, an internal host name) and bad ones (a
   * hostile answer): either way the page comes from the base the key belongs to, and the summary
   * says so once. The query alone cannot send anything elsewhere.
   */
  nextPage(link: unknown, what: string, list: URL): URL {
    if (typeof link !== 'string' || link.trim() === '') throw this.invalid(`its ${what} is not a link`);
    let given: URL;
    try {
      given = new URL(link.trim(), list);
    } catch {
      throw this.invalid(`its ${what} is not a URL`);
    }
    // Credentials in a link are no paging: no reference gives any.
    if (given.username || given.password) throw this.invalid(`its ${what} carries credentials`);
    const next = new URL(list);
    next.search = given.search;
    const path = (url: URL) => url.pathname.replace(/\/+$/, '');
    if ((given.origin !== this.origin || path(given) !== path(list)) && !this.moved.has(what)) {
      this.moved.add(what);
      const shown = redact(`${given.protocol}//${given.host}${given.pathname}`, this.secrets);
      this.notes.push(
        `${this.source.name}'s ${what} pointed to ${shown}, not to ${this.origin}${list.pathname}: each next page was asked of ${this.origin}${list.pathname} with the link's query instead, so the key in ${this.source.keyVariable} went nowhere else.`,
      );
    }
    return next;
  }

  /** GETs `url` (of the base's origin) and gives its JSON; any other answer is the error that says what to fix. */
  async getJson(url: URL, what: string): Promise<unknown> {
    return (await this.getAnswer(url, what)).json;
  }

  /** getJson, or undefined where the source answers 404 (a user it no longer knows, or a request it does not serve). */
  async getJsonUnlessNotFound(url: URL, what: string): Promise<{ json: unknown } | undefined> {
    try {
      return { json: await this.getJson(url, what) };
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  /** getJson, with the answer's headers (Opsgenie may give its next page in X-Paging-Next). */
  async getAnswer(url: URL, what: string): Promise<{ json: unknown; headers: HttpResponse['headers'] }> {
    if (url.origin !== this.origin) throw new Error(`a request to ${url.origin} from ${this.origin}: follow links through nextPage()`);
    const request: OutgoingRequest = {
      endpoint: this.endpoint(what),
      method: 'GET',
      // The query stays in the URL as the source wrote it (a `next` link): the transport adds none.
      url: url.href,
      query: {},
      headers: this.headers,
      body: undefined,
      idempotent: true,
      summary: `${this.source.name}: ${what}`,
    };
    const response = await this.sender.send(request);
    this.requests += 1;
    if (response.status >= 200 && response.status < 300) {
      const parsed = parseJsonAnswer(response.body);
      if (!parsed.ok) {
        throw this.invalid(
          parsed.reason === 'depth'
            ? `its answer to "${what}" is nested too deep to be read`
            : `its answer to "${what}" is not JSON (it may have been cut off)`,
        );
      }
      return { json: parsed.value, headers: response.headers };
    }
    throw this.failure(response, what, url);
  }

  /** The error of an answer that is not a 2xx, naming the variable to fix where one is at fault. */
  private failure(response: HttpResponse, what: string, url: URL): PagerlyError {
    const { status } = response;
    const words = this.serviceWords(response.body);
    const said = `HTTP ${status}${words ? `: "${words}"` : ''}`;
    const details = { endpoint: this.endpoint(what), status, ...(words ? { serviceMessage: words } : {}) };
    const name = this.source.name;
    if (status === 401 || this.source.keyRefused?.(status, words)) {
      return new AuthenticationError(`${name} refused the key in ${this.source.keyVariable} (${said}). ${this.source.keyHelp} Nothing was written.`, details);
    }
    if (status === 403) {
      return new PermissionError(
        `${name} answered "${what}" with ${said}: the key in ${this.source.keyVariable} may not read users. ${this.source.keyHelp} Nothing was written.`,
        details,
      );
    }
    if (status === 404) {
      return new NotFoundError(
        `${name} answered "${what}" with ${said} at ${redact(url.pathname, this.secrets)}: check ${this.source.urlVariable} (${this.base}), e.g. ${this.source.urlExample}. Nothing was written.`,
        details,
      );
    }
    if (status === 429) {
      const seconds = this.source.waitAskedBy(response);
      const when = seconds === undefined ? 'later' : retryWhen(seconds);
      return new RateLimitError(
        `${name} kept answering "${what}" with ${said} (rate limited); nothing was written. Run the import again ${when}.`,
        seconds,
        details,
      );
    }
    if (status >= 500) {
      return new ServerError(`${name} answered "${what}" with ${said} (its fault, after retries); nothing was written. Try again later.`, details);
    }
    if (REDIRECT_STATUSES.has(status)) {
      const location = response.headers['location'];
      const target = redirectTarget(Array.isArray(location) ? location[0] : location, response.url ?? url.href);
      const host = target ? redact(target.host, this.secrets) : undefined;
      return new RedirectError(
        `${name} answered "${what}" with HTTP ${status}, a redirect${host ? ` to ${host}` : ''}; it was not followed: the key in ${this.source.keyVariable} goes only to ${this.origin}. Check ${this.source.urlVariable} (https rather than http, or the API's new address). Nothing was written.`,
        host,
        details,
      );
    }
    return new RequestError(`${name} answered "${what}" with ${said}; nothing was written.`, details);
  }

  /**
   * The vendor's own words from an error body, one line, the key removed: Opsgenie's
   * `{message, requestId}`, PagerDuty's `{error: {message, errors}}`, Django REST framework's
   * `{detail}` (Grafana OnCall); else the start of the text.
   */
  private serviceWords(body: string): string {
    const parsed = parseJsonAnswer(body);
    const object = parsed.ok ? objectOf(parsed.value) : undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    let words: string | undefined;
    if (object) {
      const error = objectOf(object['error']);
      const errors = Array.isArray(error?.['errors']) ? (error['errors'] as unknown[]).map(text).filter(Boolean) : [];
      const message = text(error?.['message']) ?? text(object['message']) ?? text(object['detail']);
      const request = text(object['requestId']);
      words = [message, ...errors].filter(Boolean).join('; ') + (request ? ` (request ${request})` : '');
    } else if (!parsed.ok && !/^\s*</.test(body)) {
      words = body;
    }
    return words ? excerpt(words, this.secrets, 200) : '';
  }

  /** A 2xx that cannot be what the reference describes. */
  invalid(why: string): InvalidResponseError {
    return new InvalidResponseError(
      `${this.source.name} gave an answer the import cannot read: ${why}. Nothing was written; check ${this.source.urlVariable} (${this.base}).`,
    );
  }

  private endpoint(what: string): string {
    return `${this.source.id}: ${what}`;
  }
}
