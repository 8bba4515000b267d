import { decodeEucKr } from './euc-kr.ts';
import { DOS_CODE_PAGES } from './name-statistics.ts';

/**
 * The code pages a sync file that is not UTF-8 may be in, each with how often people's files
 * are in it (the prior of name-likelihood.ts) and the languages whose names it holds.
 *
 * What Excel's "CSV (Comma delimited)" writes in each Windows locale (874, 932, 936, 949, 950,
 * 1250-1258); its "CSV (MS-DOS)" in the DOS code page of the locale (437, 850, 852, 866);
 * Excel for Mac's older "CSV", Mac Roman; and the ISO-8859, KOI8 and EUC sets of older Unix
 * tools. The shares are rough estimates of Excel's installed base by locale (the Americas and
 * Western Europe on Windows-1252 far ahead, then China, Japan, the Cyrillic and Central
 * European locales), not measurements: they only tip a reading that its names alone cannot
 * decide, and a reading is taken only by a clear margin (detect-encoding.ts). Order breaks ties
 * between code pages that read a file the same: the most used is named.
 */
export interface CodePage {
  /** The WHATWG name (what `TextDecoder` and `--encoding` take), or `ibm…` for a DOS code page decoded from its table. */
  readonly encoding: string;
  /** Its weight among people's files; relative, the sum need not be 100. */
  readonly share: number;
  /** The languages (name-statistics.ts) whose names files in it hold. */
  readonly languages: readonly string[];
}

const WESTERN = ['en', 'fr', 'es', 'it', 'nl', 'sv', 'de', 'pt', 'no', 'da', 'fi', 'is', 'ca'];
const CENTRAL = ['pl', 'cs', 'sk', 'hu', 'ro', 'hr', 'sl'];
const CYRILLIC = ['ru', 'uk', 'bg', 'mk'];
const BALTIC = ['lt', 'lv', 'et'];

export const CODE_PAGES: readonly CodePage[] = [
  { encoding: 'windows-1252', share: 40, languages: WESTERN },
  { encoding: 'gb18030', share: 12, languages: ['zh'] },
  { encoding: 'shift_jis', share: 7, languages: ['ja'] },
  { encoding: 'windows-1251', share: 6, languages: CYRILLIC },
  { encoding: 'windows-1250', share: 5, languages: CENTRAL },
  { encoding: 'euc-kr', share: 3, languages: ['ko'] },
  { encoding: 'big5', share: 2.5, languages: ['zh-Hant'] },
  { encoding: 'windows-1254', share: 2, languages: ['tr', 'az'] },
  { encoding: 'windows-1256', share: 2, languages: ['ar', 'fa'] },
  { encoding: 'windows-1253', share: 1, languages: ['el'] },
  { encoding: 'windows-1258', share: 1, languages: ['vi'] },
  { encoding: 'windows-874', share: 1, languages: ['th'] },
  { encoding: 'windows-1255', share: 0.7, languages: ['he'] },
  { encoding: 'windows-1257', share: 0.6, languages: BALTIC },
  { encoding: 'macintosh', share: 0.5, languages: WESTERN },
  { encoding: 'euc-jp', share: 0.5, languages: ['ja'] },
  { encoding: 'ibm850', share: 0.3, languages: WESTERN },
  { encoding: 'iso-8859-2', share: 0.3, languages: CENTRAL },
  { encoding: 'ibm437', share: 0.2, languages: WESTERN },
  { encoding: 'ibm866', share: 0.2, languages: CYRILLIC },
  { encoding: 'iso-8859-15', share: 0.2, languages: WESTERN },
  { encoding: 'iso-8859-7', share: 0.2, languages: ['el'] },
  { encoding: 'koi8-r', share: 0.2, languages: ['ru'] },
  { encoding: 'ibm852', share: 0.1, languages: CENTRAL },
  { encoding: 'koi8-u', share: 0.1, languages: ['uk', 'ru'] },
  { encoding: 'iso-8859-8', share: 0.1, languages: ['he'] },
  { encoding: 'iso-8859-13', share: 0.1, languages: BALTIC },
  { encoding: 'iso-8859-5', share: 0.05, languages: CYRILLIC },
  { encoding: 'iso-8859-6', share: 0.05, languages: ['ar'] },
  { encoding: 'iso-8859-4', share: 0.05, languages: BALTIC },
];

/** Windows' and Java's names of the code pages, which the WHATWG standard does not list. */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  cp932: 'shift_jis',
  ms932: 'shift_jis',
  cp936: 'gbk',
  ms936: 'gbk',
  cp949: 'euc-kr',
  ms949: 'euc-kr',
  uhc: 'euc-kr',
  cp950: 'big5',
  ms950: 'big5',
  macroman: 'macintosh',
  'mac-roman': 'macintosh',
  cp437: 'ibm437',
  ibm437: 'ibm437',
  '437': 'ibm437',
  cp850: 'ibm850',
  ibm850: 'ibm850',
  '850': 'ibm850',
  cp852: 'ibm852',
  ibm852: 'ibm852',
  '852': 'ibm852',
};

/** The canonical name of an encoding label (`latin1` → `windows-1252`, `cp949` → `euc-kr`, `cp850` → `ibm850`), or undefined when no decoder knows it. */
export function encodingNamed(label: string): string | undefined {
  const trimmed = label.trim();
  const other = OTHER_NAMES[trimmed.toLowerCase()];
  if (other !== undefined && other in DOS_CODE_PAGES) return other;
  try {
    return new TextDecoder(other ?? trimmed).encoding;
  } catch {
    return undefined;
  }
}

/**
 * The bytes read in an encoding (a canonical name from encodingNamed): `fatal`, undefined when
 * a byte sequence is not one of it; else a sequence it cannot read becomes U+FFFD. A DOS code
 * page reads every byte; EUC-KR is code page 949 whole (euc-kr.ts). Windows-1258 has no byte for most Vietnamese letters with their tone
 * (`ễ`), so Windows writes the letter it has and the tone as a combining mark (`ê` U+0303):
 * that text is composed again (NFC), as libiconv and glibc's CP1258 converters do, so a name
 * reaches the directory as it is typed on a Vietnamese keyboard and matches a search for it.
 */
export function decodeIn(encoding: string, bytes: Uint8Array, fatal: boolean): string | undefined {
  const table = DOS_CODE_PAGES[encoding];
  if (table !== undefined) {
    let text = '';
    for (let start = 0; start < bytes.length; start += 8192) {
      text += String.fromCharCode(...Array.from(bytes.subarray(start, start + 8192), (byte) => (byte < 0x80 ? byte : table.charCodeAt(byte - 0x80))));
    }
    return text;
  }
  if (encoding === 'euc-kr') return decodeEucKr(bytes, fatal);
  const key = `${encoding} ${fatal}`;
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    decoder = new TextDecoder(encoding, { fatal });
    decoders.set(key, decoder);
  }
  try {
    const text = decoder.decode(bytes);
    return encoding === 'windows-1258' ? text.normalize('NFC') : text;
  } catch {
    return undefined;
  }
}

/** A decoder per encoding, made once: a file's lines are read in every code page (detect-encoding.ts). */
const decoders = new Map<string, InstanceType<typeof TextDecoder>>();

const encoders = new Map<string, ReadonlyMap<string, number>>();

/**
 * A text written back in a single-byte code page, or undefined when a character has no byte in
 * it: each of the 256 bytes as the platform's decoder reads it, reversed (double-encoding.ts).
 */
export function encodeIn(encoding: string, text: string): Uint8Array | undefined {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    const map = new Map<string, number>();
    for (let byte = 0xff; byte >= 0; byte -= 1) map.set(decodeIn(encoding, Uint8Array.of(byte), false)!, byte);
    map.delete('\uFFFD');
    encoder = map;
    encoders.set(encoding, encoder);
  }
  const bytes = new Uint8Array(text.length);
  let length = 0;
  for (const character of text) {
    const byte = encoder.get(character);
    if (byte === undefined) return undefined;
    bytes[length] = byte;
    length += 1;
  }
  return bytes.subarray(0, length);
}

const letterCounts = new Map<string, number>();

/**
 * How many letters a code page writes: the 52 of ASCII, and those of its other bytes, or of its
 * pairs of bytes in a code page of two-byte characters (Shift_JIS, GB18030, EUC-KR, Big5): the
 * alphabet that bytes drawn at random read as in it (name-likelihood.ts's randomScore).
 */
export function lettersIn(encoding: string): number {
  let count = letterCounts.get(encoding);
  if (count !== undefined) return count;
  const high = Array.from({ length: 0x80 }, (_, i) => 0x80 + i);
  const singles = decodeIn(encoding, Uint8Array.from(high.flatMap((byte) => [byte, 0x0a])), false)!.split('\n');
  const pairs = singles.filter((character) => character === '\uFFFD').length > 0x40;
  const trails = Array.from({ length: 0xc0 }, (_, i) => 0x40 + i);
  const characters = pairs
    ? [...singles, ...decodeIn(encoding, Uint8Array.from(high.flatMap((lead) => trails.flatMap((trail) => [lead, trail, 0x0a]))), false)!.split('\n')]
    : singles;
  count = 52 + new Set(characters.filter((character) => /^\p{L}$/u.test(character))).size;
  letterCounts.set(encoding, count);
  return count;
}
