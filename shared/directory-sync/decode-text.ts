/**
 * The text of a sync file from its bytes, as people's tools save it: UTF-8 with or without a
 * BOM (Excel's "CSV UTF-8" writes one); UTF-16 with a BOM, little or big endian (Excel's
 * "Unicode text"); and bytes that are not UTF-8, which on Windows are nearly always
 * Windows-1252 (Excel's "CSV (Comma delimited)"): read as such, with a note saying so. A
 * named encoding (`--encoding`) overrides the guess; any label the WHATWG Encoding Standard
 * knows works (`latin1` is Windows-1252 there, as in browsers).
 */

export type Decoded =
  | {
      readonly ok: true;
      readonly text: string;
      /** The encoding the text was read in, by its WHATWG name (`utf-8`, `utf-16le`, `windows-1252`, ...). */
      readonly encoding: string;
      /** One line for the plan when the encoding was guessed from bytes that are not UTF-8. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly problem: string };

const BOMS: readonly (readonly [encoding: string, bytes: readonly number[]])[] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);

export const ENCODING_EXAMPLES = 'utf-8, utf-16le, utf-16be, windows-1252 or latin1';

/** The WHATWG name of an encoding label (`latin1` → `windows-1252`), or undefined when no decoder knows it. */
export function encodingNamed(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
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
 * dropped); else by its BOM; else UTF-16 when its NULs say so (utf16WithoutBom); else UTF-8 when every byte sequence is valid UTF-8; else
 * Windows-1252. A character a decoder could not read becomes U+FFFD, which the reader then
 * refuses (replaced-characters.ts): it is never sent.
 */
export function decodeText(bytes: Uint8Array, encoding?: string, encodingOption = '--encoding'): Decoded {
  if (encoding !== undefined) {
    const name = encodingNamed(encoding);
    if (name === undefined) return { ok: false, problem: `the encoding "${encoding}" is not one a decoder knows: name one such as ${ENCODING_EXAMPLES}` };
    return { ok: true, text: new TextDecoder(name).decode(bytes), encoding: name };
  }
  for (const [name, bom] of BOMS) {
    // TextDecoder drops the BOM of its own encoding (ignoreBOM is false by default).
    if (startsWith(bytes, bom)) return { ok: true, text: new TextDecoder(name).decode(bytes), encoding: name };
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16 !== undefined) {
    return {
      ok: true,
      text: new TextDecoder(utf16).decode(bytes),
      encoding: utf16,
      note: `The file has no BOM but its bytes are UTF-16: it was read as ${utf16.toUpperCase()}; if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`,
    };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return {
      ok: true,
      text: new TextDecoder('windows-1252').decode(bytes),
      encoding: 'windows-1252',
      note: `The file is not UTF-8: it was read as Windows-1252 (what Excel saves as "CSV (Comma delimited)"); if names look wrong, name its encoding with ${encodingOption}, or re-save it as "CSV UTF-8".`,
    };
  }
}
