import { MIDDLE_DOT } from './name-letters.ts';

/**
 * What bytes read in the wrong code page leave in a people file, and a person's name never
 * holds. A reading with any of these is dropped as a candidate (detect-encoding.ts); a reading
 * without them is only plausible, not proven, which is why disagreeing plausible readings are
 * refused rather than ranked.
 *
 * Looked at word by word: a word is a run of ASCII letters and non-ASCII characters, so the
 * commas, digits, `@` and spaces between values split words and a symbol standing alone (a `©`
 * in a YAML comment) is not counted against the file.
 */

const WORD = /(?:[A-Za-z]|[^\x00-\x7F\s])+/gu;

/**
 * Never inside a name: symbols (`£`, `©`, `™`, `‡`, box drawing), other numbers (`¹`, `½`),
 * format and private-use characters, code points no character has, the spacing modifier
 * letters (`ˆ`, `˜`) that Mac Roman and Windows code pages put where the other has a letter,
 * and the signs Unicode counts as letters that no name holds: the ordinals `ª` `º` (Windows-1252
 * reads Windows-1250's `Ş` as `ª`: "ªtefan"), the micro sign `µ` and the florin `ƒ`.
 */
const NOT_IN_A_NAME = /[\p{S}\p{No}\p{Cf}\p{Co}\p{Cn}\p{Cc}\u02B0-\u02FF\u00AA\u00BA\u00B5\u0192]/u;

/** Anywhere in the text: C0 controls but tab and line breaks, DEL, C1 controls, U+FFFD, private-use and unassigned code points. */
const CONTROL_OR_REPLACED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD\p{Co}\p{Cn}]/u;

const SCRIPTS: readonly (readonly [name: string, pattern: RegExp])[] = [
  // Half-width katakana first: its own script here, as a Shift_JIS byte of 0xA1-0xDF is one.
  ['halfwidth-kana', /[\uFF61-\uFF9F]/u],
  ['Latin', /\p{Script_Extensions=Latin}/u],
  ['Cyrillic', /\p{Script_Extensions=Cyrillic}/u],
  ['Greek', /\p{Script_Extensions=Greek}/u],
  ['Hebrew', /\p{Script_Extensions=Hebrew}/u],
  ['Arabic', /\p{Script_Extensions=Arabic}/u],
  ['Thai', /\p{Script_Extensions=Thai}/u],
  ['Hangul', /\p{Script_Extensions=Hangul}/u],
  ['Han', /\p{Script_Extensions=Han}/u],
  ['Hiragana', /\p{Script_Extensions=Hiragana}/u],
  ['Katakana', /\p{Script_Extensions=Katakana}/u],
];

/**
 * The letters of the Cyrillic alphabets beyond the 24 that Russian, Ukrainian, Belarusian,
 * Bulgarian, Serbian and Macedonian nearly all share, by language. One word is written in one of them:
 * "Уймџ" (Russian й, Serbian џ) is Windows-1250 read as Windows-1251.
 */
const CYRILLIC_ALPHABETS: readonly string[] = [
  'ёйщъыьэюя', // Russian
  'йщьюяєіїґ', // Ukrainian
  'ёйыьэюяўі', // Belarusian
  'йщъьюя', // Bulgarian
  'ђјљњћџ', // Serbian
  'ѓѕјљњќџ', // Macedonian
];
const CYRILLIC_SETS = CYRILLIC_ALPHABETS.map((letters) => new Set(letters));
/** а-я without ё й щ ъ ы ь э ю я (Belarusian writes і for и: a word with и is not held against it). */
const CYRILLIC_COMMON = new Set('абвгдежзиклмнопрстуфхцчш');

function oneCyrillicAlphabet(letters: readonly string[]): boolean {
  const own = new Set(letters.map((c) => c.toLowerCase()).filter((c) => /\p{Script=Cyrillic}/u.test(c) && !CYRILLIC_COMMON.has(c)));
  return own.size === 0 || CYRILLIC_SETS.some((set) => [...own].every((c) => set.has(c)));
}

/** Japanese writes one name in kanji, hiragana and katakana together; any other mix in one word is a misreading. */
const JAPANESE = new Set(['Han', 'Hiragana', 'Katakana']);

function scriptOf(character: string): string | undefined {
  for (const [name, pattern] of SCRIPTS) if (pattern.test(character)) return name;
  return /\p{L}/u.test(character) ? 'other' : undefined; // a combining accent of any script (U+0300-U+036F) is none
}

const isAscii = (character: string) => character.charCodeAt(0) < 0x80;
const isLower = (character: string) => /\p{Ll}/u.test(character);
const isUpper = (character: string) => /\p{Lu}/u.test(character);

/** Why one word cannot be (part of) a name, or undefined when it can. */
function implausibleWord(word: string): string | undefined {
  const characters = [...word];
  if (characters.every(isAscii)) return undefined;
  const letters = characters.filter((c) => /\p{L}/u.test(c));
  if (letters.length > 0 && characters.some((c) => NOT_IN_A_NAME.test(c))) return 'a symbol inside a word';
  // A combining mark (a Thai vowel sign, an accent) belongs after a letter, never first nor after a symbol.
  if (characters.some((c, i) => /\p{M}/u.test(c) && (i === 0 || !/[\p{L}\p{M}]/u.test(characters[i - 1]!) || characters[i - 1] === c)))
    return 'a combining mark after no letter, or twice';
  // Two marks on one letter at most (an Arabic shadda and a vowel): "مَِْ" is Windows-1251 read as ISO-8859-6.
  if (/\p{M}{3}/u.test(word)) return 'three combining marks on one letter';
  // One tone per Vietnamese vowel: "ạ̀" (a dot below and a grave) is Windows-1257 read as Windows-1258.
  if (
    word
      .normalize('NFD')
      .match(/\p{L}\p{M}*/gu)
      ?.some((cluster) => (cluster.match(/[\u0300\u0301\u0303\u0309\u0323]/gu)?.length ?? 0) > 1)
  )
    return 'two tone marks on one letter';
  // Quotes, daggers and dashes where a letter was ("K”‡”‘"). A typographic apostrophe after a
  // Latin letter (O’Brien) and a name's middle dot (Gal·la, ジョン・スミス, 约翰·史密斯) are a name's own.
  const punctuation = word.replace(/(?<=[A-Za-z])[\u2019\u02BC](?=\p{L})/gu, '').replace(MIDDLE_DOT, '');
  if (letters.length > 0 && /(?![\x00-\x7F])\p{P}/u.test(punctuation)) return 'punctuation inside a word';
  if (letters.length > 0 && characters.some((c) => /\p{Nd}/u.test(c))) return 'a digit of another script inside a word';
  // Marks count too: an Arabic vowel sign on a Latin letter is two scripts.
  const scripts = new Set(
    characters
      .filter((c) => /[\p{L}\p{M}]/u.test(c))
      .map(scriptOf)
      .filter((s) => s !== undefined),
  );
  if (scripts.size > 1 && ![...scripts].every((s) => JAPANESE.has(s))) return 'two scripts in one word';
  if (scripts.has('Cyrillic') && !oneCyrillicAlphabet(letters)) return 'letters of two Cyrillic alphabets';
  // Cyrillic or Greek read in a Latin code page: a word of accented letters only ("Èâàí").
  if (scripts.has('Latin') && letters.length >= 3 && letters.every((c) => !isAscii(c))) return 'a word of accented letters only';
  for (let i = 1; i < letters.length; i += 1) {
    const [before, after] = [letters[i - 1]!, letters[i]!];
    // KOI8-R read as Windows-1251 swaps the case of every letter ("иВАН"); Mac Roman read as
    // Windows-1252 makes é an uppercase Ž ("JosŽ"). An ASCII capital after a lowercase letter
    // is a name's own (McDonald).
    if (isLower(before) && isUpper(after) && !(isAscii(before) && isAscii(after))) return 'an uppercase letter after a lowercase one';
  }
  return undefined;
}

/** Why this reading of a file cannot be its text, or undefined when it may be. */
export function implausibleReading(text: string): string | undefined {
  if (CONTROL_OR_REPLACED.test(text)) return 'a control character';
  // Each distinct word once: a directory repeats its names' words many times.
  const seen = new Set<string>();
  for (const [word] of text.normalize('NFC').matchAll(WORD)) {
    if (seen.has(word)) continue;
    seen.add(word);
    const why = implausibleWord(word);
    if (why !== undefined) return `${why} ("${word}")`;
  }
  return undefined;
}
