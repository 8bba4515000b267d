import { redact } from '../redact.ts';
import { showInvisibleControls } from '../visible-controls.ts';
import { BODY_TOO_LARGE } from './answer-size.ts';
import type { Hop } from './follow-redirects.ts';
import { answered407, PROXY_VARIABLES, proxyRefusalStatus } from './proxy-refusal.ts';
import type { HttpResponse, OutgoingRequest } from './types.ts';

/**
 * Where a trace's lines go: the CLI's stderr, a runner's log. Each call is one entry (an
 * attempt or a redirect hop), several lines joined by `\n`, without a final newline.
 */
export type Trace = (entry: string) => void;

/** The environment variable that turns the trace on where there is no `--debug` (client, MCP server, Action). */
export const DEBUG_ENV = 'PAGERLY_DEBUG';

/** Whether `PAGERLY_DEBUG` asks for a trace: anything but empty, `0` or `false`, as `DEBUG`-style switches read. */
export function debugWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[DEBUG_ENV]?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * What begins each line of a trace written to stderr, which it shares with other output (the
 * CLI's `--json` error document, a program's own messages): a script keeps one and drops the
 * other by it, `grep -v '^pagerly-debug: '` or `sed -n 's/^pagerly-debug: //p'`. Peers mark
 * their debug lines the same way: npm's `npm verb`, kubectl's klog header, the AWS CLI's
 * `- DEBUG -`. A `Trace` gets its entries without it; the writers to a stream add it.
 */
export const TRACE_LINE_PREFIX = 'pagerly-debug: ';

/** An entry as written to a shared stream: every line behind the prefix, with a final newline. */
export const markedEntry = (entry: string): string => `${entry.replace(/^/gm, TRACE_LINE_PREFIX)}\n`;

/**
 * A trace to the process's stderr, plain (never coloured: it is read in log files and pasted
 * into tickets), each line behind TRACE_LINE_PREFIX. On a runtime without `process` (a
 * browser-like one) it goes to console.error, which is stderr on Bun and Deno too.
 */
export function stderrTrace(): Trace {
  const stderr = (globalThis as { process?: { stderr?: { write?: (text: string) => unknown } } }).process?.stderr;
  return stderr?.write ? (entry) => void stderr.write!(markedEntry(entry)) : (entry) => console.error(markedEntry(entry).slice(0, -1));
}

/** A trace to stderr when `PAGERLY_DEBUG` asks for one, else none. */
export function envTrace(env: Readonly<Record<string, string | undefined>> | undefined): Trace | undefined {
  const read = env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  return debugWanted(read) ? stderrTrace() : undefined;
}

/** Headers whose whole value is a credential: shown by name only, whatever the value. */
const CREDENTIAL_HEADER = /^(x-apikey|authorization|proxy-authorization|cookie|set-cookie)$/i;

/**
 * Sends one hop through `send` and gives `trace` one entry for it, curl -v's way: a `*` line
 * that says it all for grep (method, URL, status, milliseconds, bytes of the answer; or, when
 * no response came, `refused by the proxy`, `answer not read` or `no answer` with the code), then `>` lines for the headers sent and `<` lines for
 * the headers received. Never a body. The key comes out of every line in every form the shared
 * redaction knows (an echo of it in a response header too), and credential headers are shown
 * without their value; so do the proxy's credentials (a proxy may echo the Proxy-Authorization it got).
 */
export async function tracedHop(
  trace: Trace | undefined,
  request: OutgoingRequest,
  hop: Hop,
  send: () => Promise<HttpResponse>,
  proxyEnv?: Readonly<Record<string, string | undefined>>,
): Promise<HttpResponse> {
  if (!trace) return send();
  const url = new URL(hop.url);
  if (hop.first) for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
  const secrets = Object.entries(request.headers)
    .filter(([name]) => CREDENTIAL_HEADER.test(name))
    .flatMap(([, value]) => [value, value.trim()])
    .concat(proxyCredentials(proxyEnv ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}));
  const longest = Math.max(0, ...secrets.map((secret) => secret.length));
  const clean = (text: string, max = MAX_VALUE) => cut(oneLine(withoutUserinfo(hideSecrets(precut(text, max, longest), secrets))), max, text.length);
  // As the transport sends the hop: after a 303 it is a GET, without the body's type.
  const headers =
    hop.body === undefined ? Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-type')) : request.headers;
  const sent = headerLines('>', headers, clean);
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const response = await send();
    const bytes = new TextEncoder().encode(response.body).byteLength;
    trace(
      [`* ${hop.method} ${clean(url.href, MAX_URL)} ${response.status} ${took()} ${bytes} bytes`, ...sent, ...headerLines('<', response.headers, clean)].join(
        '\n',
      ),
    );
    return response;
  } catch (error) {
    trace([`* ${hop.method} ${clean(url.href, MAX_URL)} ${clean(outcome(error))} ${took()}`, ...sent].join('\n'));
    throw error;
  }
}

/**
 * The most header lines an entry shows each way, and the most characters of a header's name
 * and value: a server that sends 10,000 headers or a megabyte in one gets a trace a person can
 * read and a runner's log can hold, with what was left out counted.
 */
const MAX_HEADERS = 100;
const MAX_VALUE = 1000;
const MAX_NAME = 200;
const MAX_URL = 2000;

function headerLines(
  marker: '>' | '<',
  headers: Readonly<Record<string, string | string[] | undefined>>,
  clean: (text: string, max?: number) => string,
): string[] {
  const lines: string[] = [];
  let left = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (lines.length === MAX_HEADERS) left += 1;
      else lines.push(`${marker} ${clean(name.toLowerCase(), MAX_NAME)}: ${CREDENTIAL_HEADER.test(name) ? '[redacted]' : clean(one)}`);
    }
  }
  if (left) lines.push(`${marker} … ${left} more headers not shown`);
  return lines;
}

/**
 * A long text cut well past `max` before it is redacted (redacting a megabyte against every
 * form of the key is slow), yet far enough past it that a key straddling the later cut is still
 * whole here: its longest form the trace decodes (every byte of a 3-byte character escaped
 * three times, `%2525E2`) is 21 characters a character.
 */
function precut(text: string, max: number, longestSecret: number): string {
  const room = max + 21 * longestSecret + 16;
  return text.length > room ? text.slice(0, room) : text;
}

/** At most `max` characters, saying how long the text as received was. */
function cut(text: string, max: number, received: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${received} characters)` : text;
}

/**
 * The key removed from a text, as `redact` does, and also where a server percent-encoded it in
 * a way the shared forms do not list (lower-case escapes, some characters escaped and not
 * others, escaped twice): redacting only the text as sent would leave the middle of such a key
 * readable. Where a decoded view holds the key, that view is shown, redacted.
 */
function hideSecrets(text: string, secrets: readonly string[]): string {
  // Up to three rounds of decoding: a URL carried in another URL's query is encoded twice.
  // The most decoded view that holds the key is the one shown: a less decoded one would keep
  // the key's still-escaped middle.
  const views = [text];
  for (let round = 0; round < 3; round++) {
    const decoded = decodeEscapes(views[0]!);
    if (decoded === views[0]) break;
    views.unshift(decoded);
  }
  for (const view of views.slice(0, -1)) {
    const hidden = redact(view, secrets);
    if (hidden !== view) return hidden;
  }
  return redact(text, secrets);
}

/** Each run of percent-escapes decoded, where it is UTF-8. */
function decodeEscapes(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A URL's user name and password (a redirect's Location may carry some) never shown. */
function withoutUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, '$1[redacted]@');
}

/** Answers that came but were not read whole: the service may have acted, so never "no answer". */
const UNREAD_CODES: ReadonlySet<string> = new Set([BODY_TOO_LARGE, 'ERR_HTTP_CONTENT_LENGTH_MISMATCH']);

/**
 * What became of a hop that gave no response, in words grep can tell apart: a proxy's refusal
 * (the request never got past the proxy, which support asks about first behind a gateway), an
 * answer that was not read whole, or no answer at all, each with the runtime's code.
 */
function outcome(error: unknown): string {
  const refused = proxyRefusalStatus(error) ?? (answered407(error) ? 407 : undefined);
  if (refused !== undefined) return `refused by the proxy (${refused})`;
  const code = failureCode(error);
  return UNREAD_CODES.has(code) ? `answer not read (${code})` : `no answer (${code})`;
}

/** The failure's code as the runtime gave it (undici's `cause.code`, a timeout's name), for a person to search. */
function failureCode(error: unknown): string {
  const { name, code, cause } = (error ?? {}) as { name?: unknown; code?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError') return 'ETIMEDOUT';
  if (name === 'AbortError') return 'ERR_CANCELED';
  if (typeof code === 'string') return code;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof name === 'string' ? name : 'unknown';
}

/**
 * Service text as one inert line: a header value cannot start a line of its own (nor so a
 * runner's `::command::`), move the cursor, or reorder what a terminal shows (bidi controls):
 * each such character is shown as its escape, by the rule every surface shares.
 */
const oneLine = (text: string): string => showInvisibleControls(text);

/**
 * The credentials in the proxy variables (`http://user:pass@proxy:3128`), as user, password and
 * `user:pass` (whose base64 is a Proxy-Authorization's value), decoded as undici sends them.
 */
function proxyCredentials(env: Readonly<Record<string, string | undefined>>): string[] {
  const found: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (!value) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text);
      } catch {
        return text;
      }
    };
    const [user, password] = [decode(url.username), decode(url.password)];
    if (user || password) found.push(`${user}:${password}`, user, password, url.username, url.password);
  }
  return found.filter((text) => text !== '');
}
