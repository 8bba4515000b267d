/**
 * Service text (names, titles, e-mails, error bodies) is untrusted wherever it is shown: a
 * terminal acts on ESC (OSC 52 writes the clipboard, OSC 8 hides a link, CSI clears the
 * screen), BEL, CR and backspace overwrite what was shown, a newline forges a line, U+202E and
 * the other bidi controls reorder what follows (`Deploy \u202Egnp.exe` shows as "Deploy exe.png"),
 * and zero-width characters make two names that differ look alike. Every surface that shows such
 * text shows these characters instead of applying them, by this one rule: the terminal as
 * escapes (`\x1b`, `\n`, `\u202e`), the sandbox console's page as the same escapes, marked.
 *
 * The characters: every Unicode control (`\p{Cc}`: C0, DEL, C1 U+0080–U+009F, where U+009B is a
 * one-byte CSI); the bidi controls (`\p{Bidi_Control}`: the embeddings, overrides and isolates
 * U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C); the line and paragraph
 * separators (U+2028, U+2029); the zero-width space, word joiner and invisible operators
 * (U+200B, U+2060–U+2064), the byte-order mark (U+FEFF) and the Mongolian vowel separator
 * (U+180E); the tag characters (U+E0000–U+E007F, which carry hidden ASCII text to a reader that
 * decodes them).
 *
 * Kept, because they are part of how people write: the zero-width non-joiner and joiner
 * (U+200C, U+200D) between letters of the scripts that join (Persian `می‌خواهم`, the Indic
 * scripts), the joiner between two emoji of one sequence (👩‍💻), and the tags of a subdivision
 * flag (🏴 England). Between Latin, Greek or Cyrillic letters they only make a name look like
 * another, and are shown.
 */
const CANDIDATES = /[\p{Cc}\p{Bidi_Control}\u2028\u2029\u200b-\u200d\u2060-\u2064\ufeff\u180e\u{e0000}-\u{e007f}]/gu;

const LETTER = /^[\p{L}\p{M}]$/u;
/** A letter or mark NOT_JOINING does not match is of a script that writes with the joiners: any but Latin, Greek and Cyrillic (and the shared and inherited ones). */
const NOT_JOINING = /^[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Common}\p{sc=Inherited}]$/u;
/** What may end an emoji before a joiner: the pictograph, a skin tone, or the emoji presentation selector. */
const EMOJI_END = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\ufe0f)$/u;
const EMOJI = /^\p{Extended_Pictographic}$/u;
/** A subdivision flag: the black flag, its region's tags (letters and digits), the cancel tag. */
const FLAG_TAGS = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{2,7}\u{e007f}/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

/** How a control is shown: `\n` for the six with a name, `\xNN` up to U+00FF, `\uNNNN`, `\u{NNNNN}` beyond the first plane. */
export function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/** The code point that ends just before `offset` ('' at the start). */
function before(text: string, offset: number): string {
  if (offset === 0) return '';
  const last = text.charCodeAt(offset - 1);
  const start = last >= 0xdc00 && last <= 0xdfff && offset >= 2 ? offset - 2 : offset - 1;
  return String.fromCodePoint(text.codePointAt(start)!);
}
/** The code point at `offset` ('' past the end). */
const at = (text: string, offset: number) => (offset < text.length ? String.fromCodePoint(text.codePointAt(offset)!) : '');

/** The spans of `text` that are subdivision flags, whose tags are kept. */
function flagSpans(text: string): [number, number][] {
  if (!text.includes('\u{1f3f4}')) return [];
  return [...text.matchAll(FLAG_TAGS)].map((match) => [match.index, match.index + match[0].length]);
}

/** Whether the candidate at `offset` is part of how the text is written (see above), so kept. */
function isWriting(char: string, offset: number, text: string, flags: readonly [number, number][]): boolean {
  if (char === '\u200c' || char === '\u200d') {
    const previous = before(text, offset);
    const next = at(text, offset + 1);
    if (LETTER.test(previous) && !NOT_JOINING.test(previous) && LETTER.test(next)) return true;
    return char === '\u200d' && EMOJI_END.test(previous) && EMOJI.test(next);
  }
  if (char >= '\u{e0000}') return flags.some(([start, end]) => offset > start && offset < end);
  return false;
}

/** Each invisible control of `text`, where it is: for a surface that marks them rather than replacing them in the text. */
export function invisibleControlsIn(text: string): { index: number; char: string }[] {
  const flags = flagSpans(text);
  return [...text.matchAll(CANDIDATES)]
    .filter((match) => !isWriting(match[0], match.index, text, flags))
    .map((match) => ({ index: match.index, char: match[0] }));
}

let everyCandidate: readonly string[] | undefined;

/**
 * Every character this rule may show, in code point order, read off its own pattern (so nothing
 * can drift): for a surface that cannot run this code and writes the rule out character by
 * character (Make's IML: make-app/generator/iml-visible-controls.ts). The joiners and tags it
 * keeps in context are among them; such a surface, unable to tell a script or an emoji, shows
 * them wherever they stand.
 */
export function controlCandidates(): readonly string[] {
  if (everyCandidate) return everyCandidate;
  const one = new RegExp(CANDIDATES.source, 'u');
  const found: string[] = [];
  for (let code = 0; code <= 0x10ffff; code += 1) {
    if (code === 0xd800) code = 0xe000; // a lone surrogate is no character
    const char = String.fromCodePoint(code);
    if (one.test(char)) found.push(char);
  }
  everyCandidate = found;
  return found;
}

/** `text` with each invisible control replaced by `show(char)`, by default its escape (`\u202e`). */
export function showInvisibleControls(text: string, show: (char: string) => string = escapeOf): string {
  const flags = flagSpans(text);
  return text.replace(CANDIDATES, (char: string, offset: number) => (isWriting(char, offset, text, flags) ? char : show(char)));
}

/** A character as JSON's `\uXXXX` escapes, one per UTF-16 unit (two beyond the first plane). */
const jsonEscape = (char: string) =>
  char
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');

/**
 * JSON text that shows its invisible controls, for JSON a person, a terminal or an agent reads
 * (`--json`, a JSON line, an MCP result's text): JSON.stringify escapes C0 controls but leaves
 * DEL, C1, the bidi and the zero-width controls raw; they are written as `\uXXXX` escapes here,
 * which every JSON parser reads back as the same characters, so the value a program reads is
 * unchanged. `json` as JSON.stringify writes it, indented or not.
 */
export function showControlsInJson(json: string): string {
  // Inside a string JSON.stringify has already escaped every C0 control: a raw one is a line break of the indentation.
  return showInvisibleControls(json, (char) => (char < ' ' ? char : jsonEscape(char)));
}

/** `value` as JSON text that shows its invisible controls (`showControlsInJson`); `space` indents as JSON.stringify's does. */
export const jsonShowingControls = (value: unknown, space?: number): string => showControlsInJson(JSON.stringify(value, null, space));
