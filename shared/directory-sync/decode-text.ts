import { detectEncoding, type Reading } from './detect-encoding.ts';
import type { Undecided } from './encoding-ambiguity.ts';

/**
 * The text of a sync file from its bytes, as people's tools save it: UTF-8 with or without a
 * BOM (Excel's "CSV UTF-8" writes one); UTF-16 with a BOM, little or big endian (Excel's
 * "Unicode text"); and bytes that are not UTF-8, which Excel's "CSV (Comma delimited)" writes
 * in the code page of its locale (932, 936, 949, 1250, 1251, 1252...): read only when that
 * code page can be told from the bytes (detect-encoding.ts), else refused, showing how each
 * plausible code page reads the names. Its "CSV (MS-DOS)" writes a DOS code page (437, 850),
 * which no decoder here reads: refused too, showing how Mac Roman, which reads it as other
 * names, reads it. A named encoding (`--encoding`) overrides it all; any label the WHATWG
 * Encoding Standard knows works (`latin1` is Windows-1252 there, as in browsers), and Windows'
 * own names (`cp932`, `cp949`...).
 */

/** How the encoding was found: a BOM, bytes valid as UTF-8, UTF-16's NULs, told from the bytes, or given. */
export type FoundBy = 'bom' | 'utf-8' | 'utf-16-nuls' | 'detected' | 'given';

export type Decoded =
  | {
      readonly ok: true;
      readonly text: string;
      /** The encoding the text was read in, by its WHATWG name (`utf-8`, `utf-16le`, `windows-1251`, ...). */
      readonly encoding: string;
      readonly foundBy: FoundBy;
      /** chardet's score (0-100) of the code page detected, when it has a model of it. */
      readonly confidence?: number;
      /** One line for the plan when the file is not UTF-8: how it was read. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly problem: string }
  /**
   * Bytes that are not UTF-8 and whose code page cannot be told: the plausible readings, whose
   * names differ; with none, the others; or the one plausible reading, in a code page chardet
   * has no model of (encoding-ambiguity.ts).
   */
  | { readonly ok: 'ambiguous'; readonly readings: readonly Reading[]; readonly why: Undecided };

const BOMS: readonly (readonly [encoding: string, bytes: readonly number[]])[] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);

export const ENCODING_EXAMPLES = 'utf-8, utf-16le, windows-1250, windows-1251, windows-1252, shift_jis, gb18030, euc-kr, big5, macintosh or iso-8859-2';

/** Windows' and Java's names of the code pages Excel saves in, which the WHATWG standard does not list. */
const WINDOWS_NAMES: Readonly<Record<string, string>> = {
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
};

/** The WHATWG name of an encoding label (`latin1` → `windows-1252`, `cp949` → `euc-kr`), or undefined when no decoder knows it. */
export function encodingNamed(label: string): string | undefined {
  const trimmed = label.trim();
  try {
    return new TextDecoder(WINDOWS_NAMES[trimmed.toLowerCase()] ?? trimmed).encoding;
  } catch {
    return undefined;
  }
}

const TITLES: Readonly<Record<string, string>> = { macintosh: 'Mac Roman', shift_jis: 'Shift_JIS', big5: 'Big5' };

/** How a plan names an encoding: `Windows-1251`, `Shift_JIS`, `GB18030`, `EUC-KR`, `Mac Roman`. */
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

/**
 * Decodes a file's bytes. With `encoding` given, that one (a BOM of the same encoding is
 * dropped); else by its BOM; else UTF-16 when its NULs say so (utf16WithoutBom); else UTF-8
 * when every byte sequence is valid UTF-8 (pure ASCII is); else the one code page that reads
 * the bytes as names (detect-encoding.ts), or `ambiguous`. A character a decoder could not read
 * becomes U+FFFD, which the reader then refuses (replaced-characters.ts): it is never sent.
 */
export function decodeText(bytes: Uint8Array, encoding?: string, encodingOption = '--encoding'): Decoded {
  if (encoding !== undefined) {
    const name = encodingNamed(encoding);
    if (name === undefined) return { ok: false, problem: `the encoding "${encoding}" is not one a decoder knows: name one such as ${ENCODING_EXAMPLES}` };
    return {
      ok: true,
      text: new TextDecoder(name).decode(bytes),
      encoding: name,
      foundBy: 'given',
      note: `The file was read as ${encodingTitle(name)}, as ${encodingOption} says.`,
    };
  }
  for (const [name, bom] of BOMS) {
    // TextDecoder drops the BOM of its own encoding (ignoreBOM is false by default).
    if (startsWith(bytes, bom)) return { ok: true, text: new TextDecoder(name).decode(bytes), encoding: name, foundBy: 'bom' };
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16 !== undefined) {
    return {
      ok: true,
      text: new TextDecoder(utf16).decode(bytes),
      encoding: utf16,
      foundBy: 'utf-16-nuls',
      note: `The file has no BOM but its bytes are UTF-16: it was read as ${utf16.toUpperCase()}; if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`,
    };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', foundBy: 'utf-8' };
  } catch {
    const detection = detectEncoding(bytes);
    if (detection.kind === 'unconfirmed') return { ok: 'ambiguous', readings: [detection.reading], why: 'unconfirmed' };
    if (detection.kind === 'ambiguous') {
      return detection.readings.length > 0
        ? { ok: 'ambiguous', readings: detection.readings, why: 'names-differ' }
        : { ok: 'ambiguous', readings: detection.implausible, why: 'no-names' };
    }
    const { reading, same, by } = detection;
    const alike =
      same.length === 0 ? '' : same.length === 1 ? `; ${encodingTitle(same[0]!)} reads it the same` : `; ${same.length} other code pages read it the same`;
    return {
      ok: true,
      text: reading.text,
      encoding: reading.encoding,
      foundBy: 'detected',
      confidence: reading.confidence,
      note: `The file is not UTF-8: it was read as ${encodingTitle(reading.encoding)}, ${by === 'only-reading' ? 'the one code page that reads it as names' : 'the one code page that reads its characters as the common characters of names'} (chardet's confidence ${reading.confidence}/100${alike}); if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`,
    };
  }
}
