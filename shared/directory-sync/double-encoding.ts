import { type CodePage, decodeIn, encodeIn } from './code-pages.ts';
import { implausibleReading } from './implausible-reading.ts';
import { namesScore, wordsBeyondAscii } from './name-likelihood.ts';
import { NAME_STATISTICS } from './name-statistics.ts';
import { MARGIN } from './scored-readings.ts';

/**
 * UTF-8 that was encoded twice: a tool read a UTF-8 file in a Windows code page and saved
 * what it read as UTF-8 again, so `José García` became `JosÃ© GarcÃ­a` (through Windows-1252),
 * `Łukasz` `Ĺukasz` (1250), `Иван` `Р˜РІР°РЅ` (1251). Such a file is valid UTF-8, and its
 * mojibake would be written to the directory as names. It is repaired only when the repair is
 * exact: the whole text written back in that code page is valid UTF-8, which read strictly
 * gives the names, and they score as names far better than the text as it came
 * (name-likelihood.ts); otherwise a file holding such words is refused.
 */

/** The code pages UTF-8 is most often misread in before it is saved again (Western, Central European, Cyrillic; then Greek, Turkish, Baltic). */
const ROUND_TRIPS = ['windows-1252', 'windows-1250', 'windows-1251', 'windows-1253', 'windows-1254', 'windows-1257'];

/** A text is scored as names of any language: a UTF-8 file names no locale. */
const ANY_LANGUAGE: CodePage = { encoding: 'utf-8', share: 1, languages: Object.keys(NAME_STATISTICS) };

/** Layers of encoding undone at most: a file twice misread is rare, three times rarer. */
const MOST_LAYERS = 3;

/** The text (or a word) as it was before one round trip through a code page, or undefined when it is not one. */
function undo(text: string, codePage: string): string | undefined {
  const bytes = encodeIn(codePage, text);
  if (bytes === undefined || bytes.every((byte) => byte < 0x80)) return undefined;
  const before = decodeIn('utf-8', bytes, true);
  return before === undefined || before === text ? undefined : before;
}

/** A word as it came and as it was before being encoded twice. */
export interface TwiceEncoded {
  readonly word: string;
  readonly repaired: string;
  readonly codePage: string;
}

/** The words no name could be that are, undone once, names (`GarcÃ­a` → `García`): the marks of a file encoded twice. */
export function twiceEncodedWords(text: string): TwiceEncoded[] {
  const found: TwiceEncoded[] = [];
  for (const word of wordsBeyondAscii(text)) {
    if (implausibleReading(word) === undefined) continue;
    for (const codePage of ROUND_TRIPS) {
      const repaired = undo(word, codePage);
      if (repaired === undefined || implausibleReading(repaired) !== undefined) continue;
      if (namesScore([repaired], ANY_LANGUAGE) - namesScore([word], ANY_LANGUAGE) < MARGIN) continue;
      found.push({ word, repaired, codePage });
      break;
    }
  }
  return found;
}

export type Repair =
  | { readonly kind: 'none' }
  /** The whole text undone exactly, through these code pages (the last misreading first). */
  | { readonly kind: 'repaired'; readonly text: string; readonly through: readonly string[]; readonly examples: readonly TwiceEncoded[] }
  /** Words encoded twice, in a text that cannot be undone whole. */
  | { readonly kind: 'unrepairable'; readonly words: readonly TwiceEncoded[] };

/** A UTF-8 text repaired when it was encoded twice (see above), or why it cannot be. */
export function repairTwiceEncoded(text: string): Repair {
  const marks = twiceEncodedWords(text);
  if (marks.length === 0) return { kind: 'none' };
  let current = text;
  const through: string[] = [];
  for (let layer = 0; layer < MOST_LAYERS; layer += 1) {
    const words = wordsBeyondAscii(current);
    const before = namesScore(words, ANY_LANGUAGE);
    const repairs = ROUND_TRIPS.flatMap((codePage) => {
      const repaired = undo(current, codePage);
      if (repaired === undefined || implausibleReading(repaired) !== undefined) return [];
      return namesScore(wordsBeyondAscii(repaired), ANY_LANGUAGE) - before >= MARGIN ? [{ codePage, repaired }] : [];
    });
    const distinct = [...new Map(repairs.map((r) => [r.repaired, r])).values()];
    if (distinct.length !== 1) break;
    current = distinct[0]!.repaired;
    through.push(distinct[0]!.codePage);
    if (twiceEncodedWords(current).length === 0) return { kind: 'repaired', text: current, through, examples: marks };
  }
  return { kind: 'unrepairable', words: marks };
}
