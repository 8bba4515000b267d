import { analyse } from 'chardet';
import { nameCharacters } from './cjk-name-characters.ts';
import { implausibleReading } from './implausible-reading.ts';

/**
 * Which code page a file that is not UTF-8 was saved in, or that it cannot be told. chardet
 * (ICU's detector) scores the code pages it has a model of; every code page it proposes, and
 * the ones it cannot score, is then read with Node's own decoder, and a reading a name could
 * not be (implausible-reading.ts) is dropped. The file is read only when every reading left
 * gives the same text, in a code page chardet scores: where two plausible readings differ, no
 * one can say from the bytes which names are right, so the caller refuses and shows both.
 */

/** One code page this reader tells apart, and the names chardet gives its models. */
interface Candidate {
  /** The WHATWG name (what `TextDecoder` and `--encoding` take). */
  readonly encoding: string;
  /**
   * The chardet matches that score it. None: chardet has no model of it, so it is always read,
   * but never taken on its own (`unconfirmed`): the DOS code pages Excel's "CSV (MS-DOS)" saves
   * in (437, 850, 865), which no decoder here reads, read as other, plausible names in Mac
   * Roman ("Jürgen" in 850 is "JÅrgen"), and nothing in the bytes tells the two apart.
   */
  readonly scoredBy: readonly string[];
}

const LATIN_1 = ['ISO-8859-1', 'windows-1252'];
const LATIN_2 = ['ISO-8859-2', 'windows-1250'];
const GREEK = ['ISO-8859-7', 'windows-1253'];
const HEBREW = ['ISO-8859-8', 'windows-1255'];
const ARABIC = ['ISO-8859-6', 'windows-1256'];

/**
 * What Excel saves as "CSV (Comma delimited)" in each Windows locale (874, 932, 936, 949, 950,
 * 1250-1258), the ISO-8859 and KOI8 sets of older Unix tools, and Mac Roman (shown in a
 * refusal, never taken on its own). Order breaks ties between readings that give the same text,
 * so the most used code page is named.
 */
export const CANDIDATES: readonly Candidate[] = [
  { encoding: 'windows-1252', scoredBy: LATIN_1 },
  { encoding: 'iso-8859-15', scoredBy: LATIN_1 },
  { encoding: 'windows-1250', scoredBy: LATIN_2 },
  { encoding: 'iso-8859-2', scoredBy: LATIN_2 },
  { encoding: 'windows-1251', scoredBy: ['windows-1251'] },
  { encoding: 'koi8-r', scoredBy: ['KOI8-R'] },
  { encoding: 'koi8-u', scoredBy: ['KOI8-R'] },
  { encoding: 'iso-8859-5', scoredBy: ['ISO-8859-5'] },
  { encoding: 'windows-1253', scoredBy: GREEK },
  { encoding: 'iso-8859-7', scoredBy: GREEK },
  { encoding: 'windows-1254', scoredBy: ['ISO-8859-9', 'windows-1254'] },
  { encoding: 'windows-1255', scoredBy: HEBREW },
  { encoding: 'iso-8859-8', scoredBy: HEBREW },
  { encoding: 'windows-1256', scoredBy: ARABIC },
  { encoding: 'iso-8859-6', scoredBy: ARABIC },
  { encoding: 'windows-1257', scoredBy: ['windows-1257'] },
  { encoding: 'iso-8859-13', scoredBy: ['windows-1257'] },
  { encoding: 'iso-8859-4', scoredBy: ['windows-1257'] },
  { encoding: 'windows-1258', scoredBy: ['windows-1258'] },
  { encoding: 'windows-874', scoredBy: ['windows-874'] },
  { encoding: 'shift_jis', scoredBy: ['Shift_JIS'] },
  { encoding: 'euc-jp', scoredBy: ['EUC-JP'] },
  { encoding: 'euc-kr', scoredBy: ['EUC-KR'] },
  { encoding: 'gb18030', scoredBy: ['GB18030'] },
  { encoding: 'big5', scoredBy: ['Big5'] },
  { encoding: 'macintosh', scoredBy: [] },
];

/** One reading of the bytes. */
export interface Reading {
  readonly encoding: string;
  readonly text: string;
  /** chardet's score (0-100); undefined for a code page it has no model of. */
  readonly confidence: number | undefined;
}

export type Detection =
  | {
      readonly kind: 'detected';
      /** Always in a code page chardet scores. */
      readonly reading: Reading & { readonly confidence: number };
      /** Other code pages that read it the same. */
      readonly same: readonly string[];
      /** The only plausible reading, or the one whose Han or Hangul are name characters where the others' are not. */
      readonly by: 'only-reading' | 'name-characters';
    }
  | {
      readonly kind: 'ambiguous';
      /** Plausible readings that differ, one per distinct text, the best scored first; empty when none is plausible. */
      readonly readings: readonly Reading[];
      /** When none is plausible: the readings a decoder could make, the best scored first. */
      readonly implausible: readonly Reading[];
    }
  | {
      /** The one plausible text, read only in code pages chardet has no model of: shown, never taken. */
      readonly kind: 'unconfirmed';
      readonly reading: Reading;
    };

/**
 * Han and Hangul readings (GB18030, Big5, Shift_JIS, EUC-JP, EUC-KR) are told apart by the
 * characters names are written with (cjk-name-characters.ts): one reading is taken when at
 * least this many of its characters are Han or Hangul and at least `NAME_LIKE` of them are
 * name characters, while every other reading is Han or Hangul too (as many characters) with
 * at most `RANDOM_LIKE` of them: what bytes of another code page give. A reading of any other
 * script cannot be judged so, and the file is refused.
 */
const FEWEST_CHARACTERS = 4;
const NAME_LIKE = 0.6;
const RANDOM_LIKE = 0.25;

function byNameCharacters(readings: readonly Reading[], sampleBytes: number): Reading | undefined {
  // Counted in about the sample's share of each text: a proportion, which a few thousand names settle.
  const scored = readings.map((reading) => ({ reading, ...nameCharacters(reading.text.slice(0, sampleBytes)) }));
  const names = scored.filter(({ total, common }) => total >= FEWEST_CHARACTERS && common >= NAME_LIKE * total);
  if (names.length !== 1) return undefined;
  const others = scored.filter((s) => s !== names[0]);
  return others.every(({ total, common }) => total >= FEWEST_CHARACTERS && common <= RANDOM_LIKE * total) ? names[0]!.reading : undefined;
}

function decode(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const byScore = (a: Reading, b: Reading) => (b.confidence ?? -1) - (a.confidence ?? -1);
/**
 * The bytes read first, up to the line break after this many: chardet scores only them (it
 * takes seconds on megabytes), and a code page whose reading of them is implausible is not
 * read further. Cut after a line feed, which no code page here uses inside a character, so the
 * sample's words are the file's words and what is implausible in it is implausible in the file.
 */
export const SAMPLE_BYTES = 64 * 1024;

function sampleOf(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE_BYTES) return bytes;
  const end = bytes.lastIndexOf(0x0a, SAMPLE_BYTES);
  return end <= 0 ? bytes : bytes.subarray(0, end + 1);
}

/** Reads bytes that are not UTF-8 in every candidate code page and keeps what a file of names could be. */
export function detectEncoding(bytes: Uint8Array): Detection {
  const sample = sampleOf(bytes);
  const scores = new Map<string, number>();
  for (const match of analyse(sample)) scores.set(match.name, Math.max(scores.get(match.name) ?? 0, match.confidence));

  const plausible: Reading[] = [];
  const implausible: Reading[] = [];
  for (const { encoding, scoredBy } of CANDIDATES) {
    const confidence = scoredBy.length === 0 ? undefined : Math.max(0, ...scoredBy.map((name) => scores.get(name) ?? 0));
    const start = decode(encoding, sample);
    if (start === undefined) continue;
    if (sample !== bytes && implausibleReading(start) !== undefined) {
      implausible.push({ encoding, text: start, confidence });
      continue;
    }
    const text = sample === bytes ? start : decode(encoding, bytes);
    if (text === undefined) continue;
    (implausibleReading(text) === undefined ? plausible : implausible).push({ encoding, text, confidence });
  }

  // One group per distinct text, named by its most used code page (the list's order); the best scored group first.
  const byText = new Map<string, Reading[]>();
  for (const reading of plausible) byText.set(reading.text, [...(byText.get(reading.text) ?? []), reading]);
  const best = (group: readonly Reading[]) => Math.max(-1, ...group.map((r) => r.confidence ?? -1));
  const groups = [...byText.values()].sort((a, b) => best(b) - best(a));
  const [first, ...others] = groups;
  if (first === undefined) {
    const distinct = [...new Map(implausible.map((reading) => [reading.text, reading])).values()];
    return { kind: 'ambiguous', readings: [], implausible: distinct.sort(byScore) };
  }
  if (others.length === 0) return detected(first, 'only-reading') ?? { kind: 'unconfirmed', reading: first[0]! };
  const named = byNameCharacters(
    groups.map((group) => group[0]!),
    sample.length,
  );
  const group = groups.find((g) => g[0] === named);
  return (group && detected(group, 'name-characters')) ?? { kind: 'ambiguous', readings: groups.map((g) => g[0]!), implausible: [] };
}

/**
 * A group of readings of one text taken as the file's, named by its first scored code page; or
 * undefined when chardet scores none of them, as a code page it has no model of is never taken.
 */
function detected(group: readonly Reading[], by: 'only-reading' | 'name-characters'): Detection | undefined {
  const reading = group.find((r): r is Reading & { confidence: number } => r.confidence !== undefined);
  if (reading === undefined) return undefined;
  return { kind: 'detected', reading, same: group.filter((r) => r !== reading).map((r) => r.encoding), by };
}
