import { CODE_PAGES, type CodePage, lettersIn } from './code-pages.ts';
import { implausibleReading } from './implausible-reading.ts';
import { logSumExp, namesScore, randomScore, wordsBeyondAscii } from './name-likelihood.ts';

/**
 * The readings of some bytes in every code page people's tools save in (code-pages.ts), each
 * distinct text once, scored as names of its code page's languages with the code page's share
 * of people's files as a prior (name-likelihood.ts): what detect-encoding.ts decides a file's
 * code page on, and mixed-code-pages.ts each of its lines.
 */

/** One reading of the bytes. */
export interface Reading {
  readonly encoding: string;
  readonly text: string;
}

/** A reading and its score: the log of its prior times its names' probability. */
export interface Scored extends Reading {
  /** The code pages that read the bytes as this text, the most used first. */
  readonly encodings: readonly string[];
  readonly score: number;
  /** No control character, no symbol inside a word (implausible-reading.ts). */
  readonly plausible: boolean;
}

/**
 * How much more likely, as a natural logarithm, the reading taken must be than any other:
 * e^8, about 3,000 to one. Measured on the corpus (scripts/encoding-corpus/measure.ts) and on
 * names the statistics were not built from: below this, short files of one code page's names
 * begin to be read in another.
 */
export const MARGIN = 8;

const TOTAL_SHARE = CODE_PAGES.reduce((sum, page) => sum + page.share, 0);

/**
 * Every distinct reading, scored, the best first: `read` gives the text in a code page, or
 * undefined when the bytes are not of it; `plausible` says whether a text can be names.
 */
export function scoredReadings(read: (encoding: string) => string | undefined, plausible: (text: string) => boolean): Scored[] {
  // Code pages that read the bytes alike share a text, and its words are found once.
  const byText = new Map<string, { encodings: string[]; scores: number[]; words: string[] }>();
  for (const page of CODE_PAGES) {
    const text = read(page.encoding);
    if (text === undefined) continue;
    const group = byText.get(text) ?? { encodings: [], scores: [], words: wordsBeyondAscii(text) };
    group.encodings.push(page.encoding);
    group.scores.push(scoreIn(page, group.words));
    byText.set(text, group);
  }
  return [...byText]
    .map(([text, { encodings, scores }]) => ({ encoding: encodings[0]!, encodings, text, score: logSumExp(scores), plausible: plausible(text) }))
    .sort((a, b) => b.score - a.score);
}

/** Words' score as names in a code page, its share of people's files included. */
export const scoreIn = (page: CodePage, words: readonly string[]) => Math.log(page.share / TOTAL_SHARE) + namesScore(words, page);

/** Whether a text can be names: implausible-reading.ts finds nothing in it. */
export const plausibleText = (text: string) => implausibleReading(text) === undefined;

/**
 * Whether a reading is likelier as names, its code page's share included, than as its letters
 * drawn at random (name-likelihood.ts's randomScore): else it is only the least bad reading of
 * bytes that are no one's names.
 */
export const likelierThanRandom = (scored: Scored) => scored.score >= randomScore(wordsBeyondAscii(scored.text), lettersIn(scored.encoding));

export const readingOf = ({ encoding, text }: Reading): Reading => ({ encoding, text });
