/**
 * How a name's letters are counted, the same when the statistics are built
 * (scripts/name-statistics/build.ts) and when a reading is scored (name-likelihood.ts): each
 * word in Unicode's composed form (NFC), in lower case whatever the language (Turkish `İ` is
 * `i`), with Romanian's comma-below `ș` `ț` counted as the cedilla `ş` `ţ` that Windows-1250
 * and ISO-8859-2 write for them, and a middle dot between letters left out.
 */
export function foldWord(word: string): string {
  return word.normalize('NFC').replace(MIDDLE_DOT, '').replaceAll('İ', 'i').toLowerCase().replaceAll('ș', 'ş').replaceAll('ț', 'ţ');
}

/**
 * A middle dot that is a name's own, not a letter of it: Catalan's between two l (`Marcel·la`),
 * and the dot between the parts of a foreign name in Japanese and Chinese (`マイケル・ジョンソン`,
 * `约翰·史密斯`). Anywhere else in a Latin word it is what a misreading leaves: Mac Roman reads
 * Windows-1252's `á` as `·` (`Siobh·n`).
 */
export const MIDDLE_DOT = /(?<=[lL])\u00B7(?=[lL])|(?<=[^\P{L}\p{Script=Latin}])[\u00B7\u30FB\uFF65](?=[^\P{L}\p{Script=Latin}])/gu;

/** The scripts names are written in, each scored by the languages written in it. */
export type NameScript = 'Latin' | 'Cyrillic' | 'Greek' | 'Hebrew' | 'Arabic' | 'Thai' | 'Han' | 'Kana' | 'Hangul';

const SCRIPT_PATTERNS: readonly (readonly [NameScript, RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/u],
  ['Hangul', /\p{Script=Hangul}/u],
];

const scripts = new Map<string, NameScript | undefined>();

/** The script of a letter or mark (a combining accent, Unicode's Inherited script, has none), cached: a file repeats its letters. */
export function scriptOf(character: string): NameScript | undefined {
  if (scripts.has(character)) return scripts.get(character);
  const script = SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(character))?.[0];
  scripts.set(character, script);
  return script;
}

/** A letter or a mark: what a name's word is made of. */
export const isLetter = (character: string) => /[\p{L}\p{M}]/u.test(character);
