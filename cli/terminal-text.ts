/**
 * Text the service sent (team and person names, e-mails, error bodies) is untrusted once it
 * reaches a terminal: ESC starts sequences that write the clipboard (OSC 52), hide links
 * (OSC 8) or clear the screen; BEL, CR and backspace overwrite what was printed; a newline
 * forges a line of output; U+202E and the other bidi controls reverse what follows. Each such
 * character is shown as a visible escape instead (`\x1b`, `\r`, `\u202e`), so a person sees
 * that the name holds one and nothing is lost. Backslashes are left as they are: a name that
 * spells `\x1b` in letters is inert text either way.
 *
 * The characters: every Unicode control (`\p{Cc}`: C0, DEL, C1 U+0080–U+009F, where U+009B is
 * a one-byte CSI), the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
 * the bidi marks (U+200E, U+200F, U+061C) and the line and paragraph separators (U+2028,
 * U+2029). No `--json` output passes here: JSON is for programs, and a consumer that prints
 * it escapes it itself.
 */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text for a terminal: every control and bidi character, newlines included, made visible. */
export const forTerminal = (text: string): string => text.replace(UNSAFE, visible);

/**
 * A JSON line for a terminal (`on-call watch` prints one per change): JSON.stringify escapes
 * C0 controls but leaves DEL, C1 and the bidi controls raw; they are written as `\uXXXX`
 * escapes here, which every JSON parser reads back as the same characters, so the value a
 * program reads is unchanged.
 */
export const jsonLineForTerminal = (value: unknown): string =>
  JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
