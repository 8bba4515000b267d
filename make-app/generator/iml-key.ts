import type { connection } from '../../shared/operations/connection.ts';
import { MIN_SECRET } from '../../shared/redact.ts';
import { imlString } from './iml-expressions.ts';

/**
 * The API key in IML: what the generated app sends, and how it keeps the key out of every text
 * it writes (error messages, the connection label). IML has no loops and no functions of our
 * own, so the shared rule of shared/redact.ts (every form, every 8+ character start or end) is
 * written out as one expression per check, built here once. Functions used, as Make documents
 * them (help.make.com/text-and-binary-functions): trim, replace, contains, substring, length,
 * encodeURL, toString, ifempty, if.
 */

/** Where the key is: `connection.apiKey` in modules, `parameters.apiKey` in the connection's own check. */
type ApiKeyField = typeof connection.apiKeyField.key;
export type KeyVariable = `connection.${ApiKeyField}` | `parameters.${ApiKeyField}`;

/**
 * The key as sent, made once per request by `keyTemp`: Make evaluates a request's `temp` before
 * the request and merges it into the `temp` collection every later directive reads (Custom apps ›
 * temp: developers.make.com/custom-apps-documentation/component-blocks/api/handling-responses/temp).
 * The Base sets it for every module and RPC; each request outside them (the connection check,
 * webhook attach and detach) sets its own.
 */
export const SENT_KEY = 'temp.key';
/** The key of an expression below: the one made by `keyTemp`, or (in tests) a variable, trimmed in place. */
export type KeyExpression = KeyVariable | typeof SENT_KEY;

/** The request's `temp` that makes `temp.key`: the key trimmed, since a pasted key often ends with a line break. */
export const keyTemp = (key: KeyVariable) => ({ key: `{{trim(${key})}}` });

/** What stands for a text that quoted the key in a form or piece a plain replace cannot take out. */
export const WITHHELD = '(withheld: it quoted the API key)';
const REDACTED = '[redacted]';
/** Put where a piece of the key was found, only to detect it: a control character no message holds. */
const FOUND = '\u0001';
/** Between the two copies of a text searched for the key: another control character no message holds. */
const APART = '\u0002';
/** As shared/redact.ts MIN_FRAGMENT: 8 characters of the key's start or end count as the key. */
const FRAGMENT = 8;

/** The key as sent (`keyHeader`): trimmed, since a pasted key often ends with a line break. */
const sent = (key: KeyExpression) => (key === SENT_KEY ? key : `trim(${key})`);

/**
 * A key a header can carry: trimmed, it is printable ASCII only (`!` to `~`), so no space, control
 * character, DEL or non-ASCII character inside. One pattern with `g`, which Make documents as
 * replacing every match (help.make.com, text functions: replace): taking every other character
 * out leaves the key as it was.
 */
export const usableKey = (key: KeyExpression = SENT_KEY): string => `replace(${sent(key)}, /[^!-~]/g, '') == ${sent(key)}`;

/**
 * The `X-APIKEY` header: the trimmed key, or no header at all for a key a header cannot carry
 * (the request would otherwise fail with an error that quotes the whole key). The service then
 * refuses the request as it refuses any missing key, and the message says to copy the key again.
 */
export const keyHeader = (key: KeyExpression = SENT_KEY) => `{{if(${usableKey(key)}, ${sent(key)}, undefined)}}`;

/** The first and last 8 characters of the key as sent, and of its URL-encoded form. */
function keyPieces(key: KeyExpression): string[] {
  return [sent(key), `encodeURL(${sent(key)})`].flatMap((form) => [`substring(${form}, 0, ${FRAGMENT})`, `substring(${form}, length(${form}) - ${FRAGMENT})`]);
}

/**
 * A text from outside, safe to show, within the 1,024 characters Make's schema allows a message
 * expression. The key as sent is replaced by "[redacted]"; if a piece of the key is still there
 * (its first or last 8 characters, as is, JSON-escaped or URL-encoded: a truncated or encoded
 * echo), the whole text is withheld; only then is it cut to `max` characters (a cut before
 * would leave the first part of a key that straddles it). JSON escapes are undone on a copy
 * for the search (`\"` → `"`, `\\` → `\`), and the text as it came is searched too (a key may
 * itself hold `\"`), so one set of pieces finds the key either way.
 * The key itself is a plain-text search, and Make does not say whether `replace` changes its
 * first or every occurrence: either way a second copy still holds the key's pieces, so the text
 * is withheld (first only) or shows "[redacted]" twice (every one); never the key.
 */
export function keySafeText(text: string, key: KeyExpression = SENT_KEY, max = 120): string {
  const replaced = `replace(toString(${text}), ifempty(${sent(key)}, '[no key]'), ${imlString(REDACTED)})`;
  // Patterns with g: every escape undone, as Make documents for /.../g (a plain text's count is not documented).
  const unescaped = `replace(replace(${replaced}, /\\\\"/g, '"'), /\\\\\\\\/g, ${imlString('\\')})`;
  // Both copies are searched, as one text: a key that itself holds `\"` is found as is, not once
  // unescaped. They are joined by a control character no key that is sent holds (`usableKey`),
  // so no piece of such a key can match across the join.
  const both = `${replaced} + ${imlString(APART)} + ${unescaped}`;
  const found = `contains(${keyPieces(key).reduce((inner, piece) => `replace(${inner}, ${piece}, ${imlString(FOUND)})`, both)}, ${imlString(FOUND)})`;
  return `if(${found}, ${imlString(WITHHELD)}, substring(${replaced}, 0, ${max}))`;
}

/**
 * Whether a text holds the key as sent, or its first or last 8 characters as they are or
 * URL-encoded (the pieces `keySafeText` looks for): a condition, for a text that is not shown
 * at all when it does (a create's id). A key shorter than shared/redact.ts `MIN_SECRET` is not
 * looked for, as there: it would match ordinary text. What the shared rule finds and this does
 * not: the key form-encoded, JSON-escaped, or as its bytes in base64 or hex (IML has no such
 * functions of parts of a text).
 */
export function holdsKey(text: string, key: KeyExpression = SENT_KEY): string {
  const pieces = keyPieces(key)
    .map((piece) => `contains(${text}, ${piece})`)
    .join(' || ');
  return `length(${sent(key)}) >= ${MIN_SECRET} && (${pieces})`;
}

/**
 * The connection's label, as an expression: "Grace Hopper (Acme)", "Pagerly API key (Acme)" when
 * nobody is named; the fixed word alone when the label would hold the key's first or last 8
 * characters (the rule of shared/operations/key-owner.ts).
 */
export function connectionLabel(key: KeyExpression, fallback: string): string {
  const label = `ifempty(body.user.name, ${imlString(fallback)}) + if(body.organization.name, ' (' + body.organization.name + ')', '')`;
  const quoted = keyPieces(key)
    .slice(0, 2)
    .map((piece) => `contains(${label}, ${piece})`)
    .join(' || ');
  return `if(${quoted}, ${imlString(fallback)}, ${label})`;
}
