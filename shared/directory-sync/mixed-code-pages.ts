import { CODE_PAGES, decodeIn } from './code-pages.ts';
import { logSumExp } from './name-likelihood.ts';
import { likelierThanRandom, MARGIN, plausibleText, type Reading, readingOf, type Scored, scoreIn } from './scored-readings.ts';

/**
 * A file put together from two exports (a Windows-1252 one and a Windows-1250 one, one after
 * the other) reads as names in one code page but for the other's part, which no reading of the
 * whole refuses: "Łukasz" read as Windows-1252 is refused, but "Lebœuf" read as Windows-1250 is
 * a plausible "Lebśuf". So once a file's code page is decided (detect-encoding.ts), each line's
 * names are read alone in every code page: a line whose names read as names far better (by the
 * margin) in another code page than in the file's shows a file that mixes two. A line of a
 * file in one code page does not: alone, its names read at worst about as well in another.
 *
 * A line's names are its words holding a byte beyond ASCII, cut at the bytes below 0x40
 * (spaces, commas, semicolons, tabs, quotes, digits), which are never the second byte of a
 * two-byte character. Each distinct word is read in each code page once, each distinct line
 * scored once, up to MOST_LINES.
 */

/** The most distinct lines checked, in the order they come: far more than a team's file, a bound on the time a large one takes. */
export const MOST_LINES = 20_000;

/** How one run of bytes (a word) reads in each code page, and whether that can be (part of) a name. */
interface WordReadings {
  readonly texts: readonly (string | undefined)[];
  readonly plausible: readonly boolean[];
}

/** The first line whose names read clearly better in another code page than in the file's `encoding`: its number, and its names as each reads them. */
export function lineOfAnotherCodePage(bytes: Uint8Array, encoding: string): { line: number; readings: [Reading, Reading] } | undefined {
  const file = CODE_PAGES.findIndex((page) => page.encoding === encoding);
  const words = new Map<string, WordReadings>();
  const readingsOf = (word: Uint8Array): WordReadings => {
    const key = Buffer.from(word).toString('latin1');
    let found = words.get(key);
    if (found === undefined) {
      const texts = CODE_PAGES.map((page) => decodeIn(page.encoding, word, true));
      found = { texts, plausible: texts.map((text) => text !== undefined && plausibleText(text)) };
      words.set(key, found);
    }
    return found;
  };
  const lines = new Set<string>();
  for (const { line, names } of namesByLine(bytes)) {
    const key = names.map((word) => Buffer.from(word).toString('latin1')).join(' ');
    if (lines.has(key)) continue;
    if (lines.size === MOST_LINES) return undefined;
    lines.add(key);
    const read = names.map(readingsOf);
    // The line's names as each code page reads them (undefined where one cannot), built once.
    const texts = CODE_PAGES.map((_, page) =>
      read.every((word) => word.texts[page] !== undefined) ? read.map((word) => word.texts[page]!).join(' ') : undefined,
    );
    const asFile = texts[file]!;
    // The other readings that can be names: most lines have few, often none.
    const others = new Map<string, number[]>();
    texts.forEach((text, page) => {
      if (text !== undefined && text !== asFile && read.every((word) => word.plausible[page])) others.set(text, [...(others.get(text) ?? []), page]);
    });
    if (others.size === 0) continue;
    const scoreOf = (pages: readonly number[], text: string) => logSumExp(pages.map((page) => scoreIn(CODE_PAGES[page]!, text.split(' '))));
    const fileScore = scoreOf(
      texts.flatMap((text, page) => (text === asFile ? [page] : [])),
      asFile,
    );
    for (const [text, pages] of others) {
      const better: Scored = { encoding: CODE_PAGES[pages[0]!]!.encoding, encodings: [], text, score: scoreOf(pages, text), plausible: true };
      if (better.score - fileScore >= MARGIN && likelierThanRandom(better)) return { line, readings: [{ encoding, text: asFile }, readingOf(better)] };
    }
  }
  return undefined;
}

/** Each line's words holding a byte beyond ASCII, cut at the bytes below 0x40; lines with none are left out. */
function* namesByLine(bytes: Uint8Array): Generator<{ line: number; names: Uint8Array[] }> {
  let line = 1;
  let names: Uint8Array[] = [];
  let word = 0;
  let beyondAscii = false;
  for (let i = 0; i <= bytes.length; i += 1) {
    const byte = i < bytes.length ? bytes[i]! : 0x0a;
    if (byte >= 0x40) {
      if (byte >= 0x80) beyondAscii = true;
      continue;
    }
    if (beyondAscii) names.push(bytes.subarray(word, i));
    beyondAscii = false;
    word = i + 1;
    if (byte !== 0x0a) continue;
    if (names.length > 0) yield { line, names };
    names = [];
    line += 1;
  }
}
