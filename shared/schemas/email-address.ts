/**
 * The one rule for an e-mail address, on every surface (assumption `email-address`): every
 * address a mail system takes passes, and only what cannot be an address is refused, since
 * the service is the judge of the rest.
 *
 * - The local part: RFC 5322's dot-atom characters (letters, digits and
 *   `! # $ % & ' * + - / = ? ^ _ \` { | } ~ .`), any non-ASCII character (RFC 6531), or a
 *   quoted string (`"a@b"@example.com`).
 * - The domain: dot-separated labels of letters, digits, `-` and `_` in any script
 *   (internationalised domains: `exämple.de`), or an address literal (`[192.0.2.1]`).
 * - Refused: no `@`, an empty local part, domain or label, a space or any other white space,
 *   a control character, a lone surrogate, U+FFFD (a character a decoder replaced), and more
 *   than 254 characters (RFC 5321's limit for a path, which no address exceeds).
 * - Refused too: the invisible characters that change how an address looks but not where mail
 *   goes: bidi marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 *   U+202A-U+202E, U+2066-U+2069), the zero-width space and the word joiner (U+200B, U+2060).
 *   IDNA 2008 disallows each in a domain, and in a local part each lets `a\u202Egro@x` show as
 *   another address in a plan, a log or a terminal. The joiners U+200C and U+200D stay: some
 *   scripts need them.
 *
 * Written without `\p{...}` and without the `u` flag, so one pattern source serves both zod
 * here and Make's `validate.pattern` (a plain JavaScript RegExp there).
 */

/**
 * White space (JavaScript's `\s`, which is Unicode's White_Space and U+FEFF), controls (C0,
 * DEL, C1), bidi controls, the zero-width space and word joiner, lone surrogates and U+FFFD.
 */
const NOT_IN_ADDRESS =
  '\\u0000-\\u0020\\u007F-\\u00A0\\u061C\\u1680\\u2000-\\u200B\\u200E\\u200F\\u2028-\\u202F\\u205F\\u2060\\u2066-\\u2069\\u3000\\uD800-\\uDFFF\\uFEFF\\uFFFD';
/** A non-ASCII character that may stand in an address: any but the above, or a surrogate pair (a character past U+FFFF). */
const NON_ASCII = `(?:[^\\u0000-\\u007F${NOT_IN_ADDRESS}]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])`;
const ATEXT = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~.]";
const QUOTED = `"(?:[^"\\\\${NOT_IN_ADDRESS}]|\\\\[^${NOT_IN_ADDRESS}]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])+"`;
const LABEL = `(?:[A-Za-z0-9_\\-]|${NON_ASCII})+`;
const LITERAL = `\\[[^\\[\\]\\\\${NOT_IN_ADDRESS}]+\\]`;

/** The address, without anchors: `(local)@(domain)`. */
export const EMAIL_ADDRESS_SOURCE = `(?:(?:${ATEXT}|${NON_ASCII})+|${QUOTED})@(?:${LABEL}(?:\\.${LABEL})*|${LITERAL})`;

/** The whole text is one address. */
export const EMAIL_ADDRESS = new RegExp(`^${EMAIL_ADDRESS_SOURCE}$`);

/** The longest address: RFC 5321 bounds a path to 256 octets, 254 of them the address. */
export const EMAIL_ADDRESS_MAX = 254;

export const EMAIL_ADDRESS_PROBLEM = 'must be an e-mail address, e.g. alex@example.com';

/** Whether `text` (already trimmed) can be an e-mail address. */
export const isEmailAddress = (text: string): boolean => text.length <= EMAIL_ADDRESS_MAX && EMAIL_ADDRESS.test(text);
