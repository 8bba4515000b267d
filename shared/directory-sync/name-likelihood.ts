import type { CodePage } from './code-pages.ts';
import { foldWord, isLetter, type NameScript, scriptOf } from './name-letters.ts';
import { NAME_STATISTICS } from './name-statistics.ts';

/**
 * How likely a reading of a file is as people's names in the languages of its code page: the
 * log-probability of its words under letter-pair models of each language's names, with the
 * case pattern of names and the code page's share of people's files as a prior. What mature
 * detectors do, on names instead of prose:
 *
 * - uchardet (Mozilla's universal detector, src/nsSBCharSetProber.cpp) scores a single-byte
 *   code page by how often its letter pairs are a language's frequent pairs ("sequence
 *   model"); here every pair is scored, under each language's pairs in names, smoothed toward
 *   its letters so that a rare name is not an impossible one.
 * - ICU's charset detector (docs/userguide/conversion/detection.md) checks single-byte text
 *   against each language's most common letter groups, and multi-byte text against its
 *   common characters: Chinese, Japanese and Korean names are scored by their characters.
 * - charset-normalizer (src/charset_normalizer/md.py, its "mess") counts what a misreading
 *   leaves: symbols and punctuation inside words, unprintable characters, accented letters
 *   piled up, a capital after a small letter, scripts mixed in a word. Here such a character is
 *   one no name's letter model gives more than a sliver of probability, and a word's case is
 *   scored as names are written (Capitalised, or all capitals). Its coherence step
 *   (src/charset_normalizer/cd.py) ranks letters by a language's frequencies; here their pairs
 *   are scored, which tells Franēois from François.
 *
 * Only words holding a character beyond ASCII are scored: the rest read the same in every
 * code page. Each distinct word is scored once, so a directory repeating one family name
 * weighs it once. A file is scored as names of one language at a time, a few words of others
 * allowed (namesScore); and, whatever it wins by, it is scored against its letters drawn at
 * random (randomScore), which bytes that are no one's names read as.
 */

export interface LanguageStatistics {
  /** The scripts its names are written in, space-separated. */
  readonly scripts: string;
  /** How many distinct words its lists held. */
  readonly words: number;
  /** Each letter (and `$`, a word's end) followed by its count as one base-36 digit d: about 2^(d/2). */
  readonly letters: string;
  /** Each pair of letters (`^` a word's start, `$` its end) followed by its count, the same way; none for Chinese, Japanese and Korean. */
  readonly pairs: string;
}

/** How many characters each script has that a name may use: an unseen letter of it is one of these. */
const SCRIPT_SIZE: Readonly<Record<NameScript, number>> = {
  Latin: 300,
  Cyrillic: 100,
  Greek: 80,
  Hebrew: 60,
  Arabic: 100,
  Thai: 90,
  Han: 20000,
  Kana: 180,
  Hangul: 11172,
};

/**
 * Of a language's letters, the share left to those its lists never held: at least this, and
 * more where its lists are thin: the share of its letters seen once (Good and Turing's
 * estimate), a fifth of the characters of Chinese names, a tenth of Japanese ones.
 */
const UNSEEN = 0.01;
/** A letter of a script the language is not written in, and a character that is no letter (a symbol, a control): the mess a misreading leaves. */
const OTHER_SCRIPT = 1e-6;
const NOT_A_LETTER = 1e-7;
/**
 * How much a letter's probability after another comes from their pair's count; the rest from
 * the letter's own count. Nine tenths: with less, a letter frequent in one language scores
 * nearly as well after one it seldom follows in names (Lithuanian `ė` after `o`: "Zoė" for
 * "Zoë"), and short files are refused that need not be (on the check corpus's tuning half and
 * random files of its names, a third fewer refusals than with seven tenths, none misread).
 */
const PAIR_WEIGHT = 0.9;
/**
 * A space of another script inside a run of letters (no-break space, the ideographic space
 * between a Japanese family and given name): it ends one word and starts the next, and costs
 * this much, so a reading that turns a letter into a space is not scored as fewer letters.
 */
const SPACE = Math.log(1e-3);

interface LanguageModel {
  readonly language: string;
  readonly scripts: ReadonlySet<NameScript>;
  readonly letters: ReadonlyMap<string, number>;
  readonly total: number;
  readonly pairs: ReadonlyMap<string, number>;
  readonly pairTotals: ReadonlyMap<string, number>;
  /** The share of its letters left to those its lists never held. */
  readonly unseen: number;
}

const countOf = (digit: string) => 2 ** (Number.parseInt(digit, 36) / 2);

function modelOf(language: string, statistics: LanguageStatistics): LanguageModel {
  const letters = new Map<string, number>();
  const chars = [...statistics.letters];
  for (let i = 0; i < chars.length; i += 2) letters.set(chars[i]!, countOf(chars[i + 1]!));
  const pairs = new Map<string, number>();
  const pairTotals = new Map<string, number>();
  const pairChars = [...statistics.pairs];
  for (let i = 0; i < pairChars.length; i += 3) {
    const count = countOf(pairChars[i + 2]!);
    pairs.set(pairChars[i]! + pairChars[i + 1]!, count);
    pairTotals.set(pairChars[i]!, (pairTotals.get(pairChars[i]!) ?? 0) + count);
  }
  const total = [...letters.values()].reduce((a, b) => a + b, 0);
  const once = [...letters.values()].filter((count) => count === 1).length;
  return {
    language,
    scripts: new Set(statistics.scripts.split(' ') as NameScript[]),
    letters,
    total,
    pairs,
    pairTotals,
    unseen: Math.max(UNSEEN, once / total),
  };
}

let models: ReadonlyMap<string, LanguageModel> | undefined;
const modelsByLanguage = () => {
  models ??= new Map(Object.entries(NAME_STATISTICS).map(([language, statistics]) => [language, modelOf(language, statistics)]));
  return models;
};

/** A letter's probability in a language, whatever came before it. */
function letterProbability(model: LanguageModel, character: string): number {
  const script = scriptOf(character);
  const base =
    character === '$' ? 1 : !isLetter(character) ? NOT_A_LETTER : script !== undefined && model.scripts.has(script) ? 1 / SCRIPT_SIZE[script] : OTHER_SCRIPT;
  return ((model.letters.get(character) ?? 0) + model.unseen * model.total * base) / ((1 + model.unseen) * model.total);
}

/** A letter's probability after another (`^` a word's start): their pair's share, mixed with the letter's own. */
function pairProbability(model: LanguageModel, previous: string, character: string): number {
  const single = letterProbability(model, character);
  const total = model.pairTotals.get(previous) ?? 0;
  return total === 0 ? single : (PAIR_WEIGHT * (model.pairs.get(previous + character) ?? 0)) / total + (1 - PAIR_WEIGHT) * single;
}

/** The log-probability of one folded word in one language: its letter pairs, from its start to its end. */
function wordLogProbability(model: LanguageModel, characters: readonly string[]): number {
  let sum = 0;
  let previous = '^';
  for (const character of [...characters, '$']) {
    if (/\p{Zs}/u.test(character)) {
      sum += Math.log(pairProbability(model, previous, '$')) + SPACE;
      previous = '^';
      continue;
    }
    sum += Math.log(pairProbability(model, previous, character));
    previous = character;
  }
  return sum;
}

const CASED = new Set<NameScript>(['Latin', 'Cyrillic', 'Greek']);
const isUpper = (character: string) => /\p{Lu}|\p{Lt}/u.test(character);
const isLower = (character: string) => /\p{Ll}/u.test(character);

/**
 * The case pattern of a word, as names are written: Capitalised (`Müller`), all capitals
 * (`GARCÍA`, family names in some exports) or all small letters (a particle). Any other mix is
 * a name's own only between ASCII letters (`McDonald`); a capital beyond ASCII inside a word
 * (`JosŽ`, `MÅller`, `иВАН`) is what a misreading leaves.
 */
function caseLogProbability(word: string): number {
  const letters = [...word].filter((c) => isUpper(c) || isLower(c));
  if (letters.length < 2) return 0;
  const [first, ...rest] = letters;
  if (rest.every(isLower)) return isUpper(first!) ? Math.log(0.9) : Math.log(0.04);
  if (isUpper(first!) && rest.every(isUpper)) return Math.log(0.06);
  return rest.some((c, i) => isUpper(c) && c.charCodeAt(0) > 0x7f && (i === 0 || isLower(letters[i]!))) ? Math.log(1e-4) : Math.log(0.005);
}

/** A word's main script: the one most of its letters are in. */
function mainScript(characters: readonly string[]): NameScript | undefined {
  const counts = new Map<NameScript, number>();
  for (const c of characters) {
    const script = scriptOf(c);
    if (script !== undefined) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** A script none of a code page's languages is written in (Cyrillic in a Japanese code page): possible, rare. */
const FOREIGN_SCRIPT = Math.log(1e-3);
/** The share of a file's names that are not of its language: names travel. */
const OTHER_LANGUAGES = 0.1;

/** The log of a sum of probabilities given as logs. */
export const logSumExp = (values: readonly number[]) => {
  const most = Math.max(...values);
  return most === -Infinity ? most : most + Math.log(values.reduce((sum, v) => sum + Math.exp(v - most), 0));
};

/**
 * One word's log-probability as a name in a file of each language of its script: of that
 * language, or (OTHER_LANGUAGES) of any language of its script, its case pattern included;
 * and in a file of a language of another script (FOREIGN_SCRIPT).
 */
interface WordScores {
  readonly byLanguage: ReadonlyMap<string, number>;
  readonly foreign: number;
}

/** Each word's scores, computed once: readings share most of their words, and a file's lines their names. */
const wordScores = new Map<string, WordScores>();
const MOST_CACHED = 50_000;

function scoresOf(word: string): WordScores {
  let scores = wordScores.get(word);
  if (scores !== undefined) return scores;
  const folded = [...foldWord(word)];
  const script = mainScript(folded);
  if (script === undefined) {
    scores = { byLanguage: new Map(), foreign: [...word].length * Math.log(NOT_A_LETTER) };
  } else {
    const own = new Map<string, number>();
    for (const model of modelsByLanguage().values()) if (model.scripts.has(script)) own.set(model.language, wordLogProbability(model, folded));
    const casing = CASED.has(script) ? caseLogProbability(word) : 0;
    const any = logSumExp([...own.values()]) - Math.log(own.size);
    const mixed = (score: number) => logSumExp([score + Math.log(1 - OTHER_LANGUAGES), any + Math.log(OTHER_LANGUAGES)]) + casing;
    scores = { byLanguage: new Map([...own].map(([language, score]) => [language, mixed(score)] as const)), foreign: any + FOREIGN_SCRIPT + casing };
  }
  if (wordScores.size >= MOST_CACHED) wordScores.clear();
  wordScores.set(word, scores);
  return scores;
}

/** Runs of ASCII letters and characters beyond ASCII: the words of names; ASCII spaces, commas, digits, `@` split them. */
const WORD = /(?:[A-Za-z]|[^\x00-\x7F])+/gu;

/** The most distinct words scored: far more than a margin needs, few enough for a file of 100,000 people. */
export const MOST_WORDS = 3000;

/** The distinct words of a text that hold a character beyond ASCII, in the order they come, at most MOST_WORDS. */
export function wordsBeyondAscii(text: string): string[] {
  const words = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    if (!/[^\x00-\x7F]/.test(word)) continue;
    words.add(word);
    if (words.size === MOST_WORDS) break;
  }
  return [...words];
}

/**
 * The log-probability of a reading's words as names in a file of this code page (its prior not
 * included). A file is a company's or a team's: most of its names are of one language, the
 * language of the code page's locale, a few of others. So each of the code page's languages is
 * in turn taken as the file's, and their likelihoods averaged: a reading that reads as one
 * language's names (Brontë, Nuñez, Ramón in Windows-1252) beats one whose every word is of
 * another (Brontė, Nuńez in Windows-1257), as a person reading the file would judge.
 */
export function namesScore(words: readonly string[], codePage: CodePage): number {
  const totals = codePage.languages.map(() => 0);
  for (const word of words) {
    const { byLanguage, foreign } = scoresOf(word);
    for (let i = 0; i < totals.length; i += 1) totals[i]! += byLanguage.get(codePage.languages[i]!) ?? foreign;
  }
  return logSumExp(totals) - Math.log(totals.length);
}

/** A word's end, for letters drawn at random: after about six letters, as names' words end. */
const RANDOM_END = Math.log(1 / 6);

/**
 * The log-probability of a reading's words as characters drawn at random from the `letters`
 * letters its code page writes: what bytes that are not names (a binary file, another encoding,
 * garbage) read as. A reading taken must be likelier as names than this (detect-encoding.ts), or
 * it is the only reading left, not a good one.
 */
export function randomScore(words: readonly string[], letters: number): number {
  return words.reduce((sum, word) => sum + [...foldWord(word)].length * Math.log(1 / letters) + RANDOM_END, 0);
}
