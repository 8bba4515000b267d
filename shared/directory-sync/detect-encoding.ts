import { CODE_PAGES, decodeIn, lettersIn } from './code-pages.ts';
import { implausibleReading } from './implausible-reading.ts';
import { namesScore, randomScore, wordsBeyondAscii } from './name-likelihood.ts';

/**
 * Which code page a file that is not UTF-8 was saved in, or that it cannot be told. The bytes
 * are read in every code page people's tools save in (code-pages.ts); each distinct reading is
 * scored as names of its code page's languages, with the code page's share of people's files
 * as a prior (name-likelihood.ts). A reading is taken only when it is plausible as names (no
 * control character, no symbol inside a word: implausible-reading.ts), scores above every
 * other reading by a clear margin, and is likelier as names than as its code page's letters
 * drawn at random: a wrong guess would write wrong names to the directory for good, so where
 * two readings come close the caller refuses and shows both, and where the best is only the
 * least bad (bytes that are no one's names) it refuses too.
 */

/** One reading of the bytes. */
export interface Reading {
  readonly encoding: string;
  readonly text: string;
}

/** A reading and its score: the log of its prior times its names' probability. */
interface Scored extends Reading {
  /** The code pages that read the bytes as this text, the most used first. */
  readonly encodings: readonly string[];
  readonly score: number;
  readonly plausible: boolean;
}

export type Detection =
  | {
      readonly kind: 'detected';
      readonly reading: Reading;
      /** How sure, 0-100: the reading's share of the probability of all readings. */
      readonly confidence: number;
      /** Other code pages that read it the same. */
      readonly same: readonly string[];
    }
  | {
      readonly kind: 'ambiguous';
      /** The plausible readings within the margin of the best, the best first; empty when none is plausible. */
      readonly readings: readonly Reading[];
      /** When none is plausible: the readings a decoder could make, the best scored first. */
      readonly implausible: readonly Reading[];
    };

/**
 * How much more likely, as a natural logarithm, the reading taken must be than any other:
 * e^8, about 3,000 to one. Measured on the corpus (scripts/encoding-corpus/measure.ts) and on
 * names the statistics were not built from: below this, short files of one code page's names
 * begin to be read in another.
 */
export const MARGIN = 8;

/**
 * The bytes read first, up to the line break after this many: the readings are scored on
 * them, and the one taken is then read whole (and the whole decided again when it does not
 * read as names there). Cut after a line feed, which no code page here uses inside a character.
 */
export const SAMPLE_BYTES = 64 * 1024;

function sampleOf(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE_BYTES) return bytes;
  const end = bytes.lastIndexOf(0x0a, SAMPLE_BYTES);
  return end <= 0 ? bytes : bytes.subarray(0, end + 1);
}

/** Every distinct reading of the bytes, scored, the best first. */
function scoredReadings(bytes: Uint8Array): Scored[] {
  const byText = new Map<string, { encodings: string[]; scores: number[] }>();
  const total = CODE_PAGES.reduce((sum, page) => sum + page.share, 0);
  for (const page of CODE_PAGES) {
    const text = decodeIn(page.encoding, bytes, true);
    if (text === undefined) continue;
    const group = byText.get(text) ?? { encodings: [], scores: [] };
    group.encodings.push(page.encoding);
    group.scores.push(Math.log(page.share / total) + namesScore(wordsBeyondAscii(text), page));
    byText.set(text, group);
  }
  return [...byText]
    .map(([text, { encodings, scores }]) => {
      const most = Math.max(...scores);
      return {
        encoding: encodings[0]!,
        encodings,
        text,
        score: most + Math.log(scores.reduce((sum, s) => sum + Math.exp(s - most), 0)),
        plausible: implausibleReading(text) === undefined,
      };
    })
    .sort((a, b) => b.score - a.score);
}

const reading = ({ encoding, text }: Reading): Reading => ({ encoding, text });

function decide(bytes: Uint8Array): Detection {
  const readings = scoredReadings(bytes);
  const best = readings.find((r) => r.plausible);
  // None plausible, or the best is no likelier as names than as random letters: no one's names.
  if (best === undefined || best.score < randomScore(wordsBeyondAscii(best.text), lettersIn(best.encoding)))
    return { kind: 'ambiguous', readings: [], implausible: readings.map(reading) };
  const others = readings.filter((r) => r !== best);
  const runnerUp = Math.max(-Infinity, ...others.map((r) => r.score));
  if (best.score - runnerUp < MARGIN) {
    const close = readings.filter((r) => r.plausible && r.score > best.score - MARGIN);
    const contenders = close.length > 1 ? close : [best, ...others.filter((r) => r.score > best.score - MARGIN)];
    return { kind: 'ambiguous', readings: contenders.map(reading), implausible: [] };
  }
  const confidence = Math.floor(100 / (1 + others.reduce((sum, r) => sum + Math.exp(r.score - best.score), 0)));
  return { kind: 'detected', reading: reading(best), confidence, same: best.encodings.slice(1) };
}

/** Reads bytes that are not UTF-8 in every candidate code page and takes the one clearly best read as names, if any. */
export function detectEncoding(bytes: Uint8Array): Detection {
  const sample = sampleOf(bytes);
  const decision = decide(sample);
  if (sample === bytes) return decision;
  if (decision.kind === 'detected') {
    const whole = decodeIn(decision.reading.encoding, bytes, true);
    if (whole !== undefined && implausibleReading(whole) === undefined) return { ...decision, reading: { encoding: decision.reading.encoding, text: whole } };
  }
  return decide(bytes);
}
