import { decodeIn } from './code-pages.ts';
import { lineOfAnotherCodePage } from './mixed-code-pages.ts';
import { likelierThanRandom, MARGIN, plausibleText, type Reading, readingOf, scoredReadings } from './scored-readings.ts';

export type { Reading };

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
      /** A line whose names, read alone, are clearly of another code page: the file mixes two. */
      readonly kind: 'mixed';
      /** The line, from 1. */
      readonly line: number;
      /** Its names as the file's code page reads them, then as the other does. */
      readonly readings: readonly [Reading, Reading];
    }
  | {
      readonly kind: 'ambiguous';
      /** The plausible readings within the margin of the best, the best first; empty when none is plausible. */
      readonly readings: readonly Reading[];
      /** When none is plausible: the readings a decoder could make, the best scored first. */
      readonly implausible: readonly Reading[];
    };

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

function decide(bytes: Uint8Array): Detection {
  const readings = scoredReadings((encoding) => decodeIn(encoding, bytes, true), plausibleText);
  const best = readings.find((r) => r.plausible);
  // None plausible, or the best is no likelier as names than as random letters: no one's names.
  if (best === undefined || !likelierThanRandom(best)) return { kind: 'ambiguous', readings: [], implausible: readings.map(readingOf) };
  const others = readings.filter((r) => r !== best);
  const runnerUp = Math.max(-Infinity, ...others.map((r) => r.score));
  if (best.score - runnerUp < MARGIN) {
    const close = readings.filter((r) => r.plausible && r.score > best.score - MARGIN);
    const contenders = close.length > 1 ? close : [best, ...others.filter((r) => r.score > best.score - MARGIN)];
    return { kind: 'ambiguous', readings: contenders.map(readingOf), implausible: [] };
  }
  const confidence = Math.floor(100 / (1 + others.reduce((sum, r) => sum + Math.exp(r.score - best.score), 0)));
  return { kind: 'detected', reading: readingOf(best), confidence, same: best.encodings.slice(1) };
}

/** Reads bytes that are not UTF-8 in every candidate code page and takes the one clearly best read as names, if any. */
export function detectEncoding(bytes: Uint8Array): Detection {
  const decision = decideWhole(bytes);
  if (decision.kind !== 'detected') return decision;
  const mixed = lineOfAnotherCodePage(bytes, decision.reading.encoding);
  return mixed === undefined ? decision : { kind: 'mixed', ...mixed };
}

/** The decision on the sample, and the whole read in its code page; or, when the whole does not read as names in it, on the whole. */
function decideWhole(bytes: Uint8Array): Detection {
  const sample = sampleOf(bytes);
  const decision = decide(sample);
  if (sample === bytes) return decision;
  if (decision.kind === 'detected') {
    const whole = decodeIn(decision.reading.encoding, bytes, true);
    if (whole !== undefined && plausibleText(whole)) return { ...decision, reading: { encoding: decision.reading.encoding, text: whole } };
  }
  return decide(bytes);
}
