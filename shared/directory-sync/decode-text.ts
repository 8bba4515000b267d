import { decodeIn, encodingNamed } from './code-pages.ts';
import { detectEncoding, type Reading } from './detect-encoding.ts';
import { repairTwiceEncoded, type TwiceEncoded, twiceEncodedWords } from './double-encoding.ts';
import type { Undecided } from './encoding-ambiguity.ts';

export { encodingNamed };

/**
 * The text of a sync file from its bytes, as people's tools save it: UTF-8 with or without a
 * BOM (Excel's "CSV UTF-8" writes one); UTF-16 with a BOM, little or big endian (Excel's
 * "Unicode text"); and bytes that are not UTF-8, which Excel's "CSV (Comma delimited)" writes
 * in the code page of its locale (932, 936, 949, 1250, 1251, 1252...) and its "CSV (MS-DOS)"
 * in a DOS one (437, 850, 852, 866): read in the code page whose reading scores clearly best as
 * names (detect-encoding.ts), else refused, showing how the close readings read the names.
 * UTF-8 encoded twice (`JosÃ©` for `José`) is repaired when the repair is exact, else refused
 * (double-encoding.ts). A named encoding (`--encoding`) overrides the guess; any label the
 * WHATWG Encoding Standard knows works (`latin1` is Windows-1252 there, as in browsers), and
 * Windows' own names (`cp932`, `cp949`, `cp850`...).
 */

/** How the encoding was found: a BOM, bytes valid as UTF-8, UTF-16's NULs, told from the bytes, or given. */
export type FoundBy = 'bom' | 'utf-8' | 'utf-16-nuls' | 'detected' | 'given';

export type Decoded =
  | {
      readonly ok: true;
      readonly text: string;
      /** The encoding the text was read in (`utf-8`, `utf-16le`, `windows-1251`, `ibm850`, ...). */
      readonly encoding: string;
      readonly foundBy: FoundBy;
      /** Detected: how sure the scorer is of that code page (0-100). */
      readonly confidence?: number;
      /** One line for the plan when the file is not UTF-8, or was repaired: how it was read. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly problem: string }
  /**
   * Bytes that are not UTF-8 and whose code page cannot be told: the close readings, or with
   * none plausible, the others; or, when the file mixes code pages, the names of the line that
   * shows it as the file's code page reads them, then as the other.
   */
  | { readonly ok: 'ambiguous'; readonly readings: readonly Reading[]; readonly why: Undecided; readonly line?: number };

const BOMS: readonly (readonly [encoding: string, bytes: readonly number[]])[] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);

export const ENCODING_EXAMPLES = 'utf-8, utf-16le, windows-1250, windows-1251, windows-1252, shift_jis, gb18030, euc-kr, big5, macintosh or iso-8859-2';

const TITLES: Readonly<Record<string, string>> = {
  macintosh: 'Mac Roman',
  shift_jis: 'Shift_JIS',
  big5: 'Big5',
  ibm437: 'DOS 437',
  ibm850: 'DOS 850',
  ibm852: 'DOS 852',
  ibm866: 'DOS 866',
};

/** How a plan names an encoding: `Windows-1251`, `Shift_JIS`, `GB18030`, `EUC-KR`, `Mac Roman`, `DOS 850`. */
export function encodingTitle(encoding: string): string {
  return TITLES[encoding] ?? (encoding.startsWith('windows-') ? encoding.replace('windows-', 'Windows-') : encoding.toUpperCase());
}

/**
 * UTF-16 saved without a BOM: ASCII text in it has a NUL in every other byte, which is valid
 * UTF-8 and would be read as names and columns full of NULs. Taken as UTF-16 when at least a
 * quarter of the bytes are NULs and all of them fall on the same side of each pair (low byte
 * second: little endian; first: big endian); a stray NUL in a UTF-8 file is not enough.
 */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] !== 0) continue;
    if (i % 2 === 0) even += 1;
    else odd += 1;
  }
  if (bytes.length % 2 !== 0 || even + odd < bytes.length / 4) return undefined;
  if (even === 0) return 'utf-16le';
  if (odd === 0) return 'utf-16be';
  return undefined;
}

const quote = (words: readonly TwiceEncoded[]) =>
  words
    .slice(0, 3)
    .map(({ word, repaired }) => `"${word}" for "${repaired}"`)
    .join(', ');

const TWICE = (encodingOption: string, words: readonly TwiceEncoded[]) =>
  `the file's names were encoded twice (UTF-8 read as ${encodingTitle(words[0]!.codePage)} and saved as UTF-8 again: ${quote(words)}), and the text cannot be undone exactly as a whole (some values were not encoded twice, or were changed since): nothing was read. Export the file again from where it came from as UTF-8 (in Excel: "CSV UTF-8"), or fix those names; ${encodingOption} does not apply`;

/**
 * A text read as Unicode (a BOM, UTF-16's NULs or valid UTF-8), repaired when it was encoded
 * twice, or refused when it was and cannot be undone exactly.
 */
function unicode(text: string, encoding: string, foundBy: FoundBy, note: string | undefined, encodingOption: string): Decoded {
  const repair = repairTwiceEncoded(text);
  if (repair.kind === 'none') return { ok: true, text, encoding, foundBy, ...(note ? { note } : {}) };
  if (repair.kind === 'unrepairable') return { ok: false, problem: TWICE(encodingOption, repair.words) };
  const through = repair.through.map(encodingTitle).join(', then ');
  return {
    ok: true,
    text: repair.text,
    encoding,
    foundBy,
    note: `The file is ${encoding.toUpperCase()}, but its names had been encoded twice (UTF-8 read as ${through} and saved again: ${quote(repair.examples)}): they were repaired, exactly. If they look wrong, export the file again as UTF-8.`,
  };
}

/**
 * Decodes a file's bytes. With `encoding` given, that one (a BOM of the same encoding is
 * dropped); else by its BOM; else UTF-16 when its NULs say so (utf16WithoutBom); else UTF-8
 * when every byte sequence is valid UTF-8 (pure ASCII is); else the code page that reads the
 * bytes clearly best as names (detect-encoding.ts), or `ambiguous`. A character a decoder
 * could not read becomes U+FFFD, which the reader then refuses (replaced-characters.ts): it is
 * never sent. A text whose names were encoded twice is repaired or refused, never passed on.
 */
export function decodeText(bytes: Uint8Array, encoding?: string, encodingOption = '--encoding'): Decoded {
  if (encoding !== undefined) {
    const name = encodingNamed(encoding);
    if (name === undefined) return { ok: false, problem: `the encoding "${encoding}" is not one a decoder knows: name one such as ${ENCODING_EXAMPLES}` };
    // TextDecoder drops a BOM of its own encoding.
    const text = decodeIn(name, bytes, false)!;
    const twice = twiceEncodedWords(text);
    if (twice.length > 0)
      return {
        ok: false,
        problem: `read as ${encodingTitle(name)} (as ${encodingOption} says), the file's names are UTF-8 encoded twice (${quote(twice)}): ${name === 'utf-8' ? 'export it again as UTF-8 (in Excel: "CSV UTF-8")' : `the file is probably UTF-8: leave out ${encodingOption}`}`,
      };
    return { ok: true, text, encoding: name, foundBy: 'given', note: `The file was read as ${encodingTitle(name)}, as ${encodingOption} says.` };
  }
  for (const [name, bom] of BOMS) {
    // TextDecoder drops the BOM of its own encoding (ignoreBOM is false by default).
    if (startsWith(bytes, bom)) return unicode(new TextDecoder(name).decode(bytes), name, 'bom', undefined, encodingOption);
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16 !== undefined) {
    const note = `The file has no BOM but its bytes are UTF-16: it was read as ${utf16.toUpperCase()}; if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`;
    return unicode(new TextDecoder(utf16).decode(bytes), utf16, 'utf-16-nuls', note, encodingOption);
  }
  const utf8 = decodeIn('utf-8', bytes, true);
  if (utf8 !== undefined) return unicode(utf8, 'utf-8', 'utf-8', undefined, encodingOption);
  const detection = detectEncoding(bytes);
  if (detection.kind === 'mixed') return { ok: 'ambiguous', readings: detection.readings, why: 'mixed', line: detection.line };
  if (detection.kind === 'ambiguous') {
    return detection.readings.length > 0
      ? { ok: 'ambiguous', readings: detection.readings, why: 'names-differ' }
      : { ok: 'ambiguous', readings: detection.implausible, why: 'no-names' };
  }
  const { reading, same, confidence } = detection;
  const alike =
    same.length === 0 ? '' : same.length === 1 ? `; ${encodingTitle(same[0]!)} reads it the same` : `; ${same.length} other code pages read it the same`;
  return {
    ok: true,
    text: reading.text,
    encoding: reading.encoding,
    foundBy: 'detected',
    confidence,
    note: `The file is not UTF-8: it was read as ${encodingTitle(reading.encoding)}, the code page whose reading scores clearly best as names (confidence ${confidence}/100${alike}); if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`,
  };
}
