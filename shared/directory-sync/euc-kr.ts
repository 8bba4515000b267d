/**
 * EUC-KR as the WHATWG Encoding Standard defines it: Windows' code page 949 (Unified Hangul
 * Code), what Excel saves in on Korean Windows. Node's TextDecoder, built on ICU, reads only
 * its KS X 1001 part (2,350 Hangul syllables), and the 8,822 others (`똠`, `햏`) as a C1 control
 * and a letter, or not at all (nodejs/node#40091). Here the KS X 1001 pairs are read with
 * Node's decoder and the others from UHC's own order: the syllables KS X 1001 lacks, in
 * Unicode's order, on the trail bytes 0x41-0x5A, 0x61-0x7A and 0x81-0xFE after the lead
 * bytes 0x81-0xA0, and 0x41-0x5A, 0x61-0x7A and 0x81-0xA0 after 0xA1-0xC6.
 */

/** Characters (their UTF-16 code unit, all one) by their two bytes (lead × 256 + trail), 0 for none: KS X 1001's, then UHC's. */
let table: Uint16Array | undefined;

function tableOf(): Uint16Array {
  if (table !== undefined) return table;
  const pairs: number[] = [];
  for (let lead = 0xa1; lead <= 0xfe; lead += 1) for (let trail = 0xa1; trail <= 0xfe; trail += 1) pairs.push(lead, trail, 0x0a);
  const read = new TextDecoder('euc-kr').decode(Uint8Array.from(pairs)).split('\n');
  const map = new Uint16Array(0x10000);
  read.forEach((character, i) => {
    // The user-defined rows (private use in ICU) are no characters of the standard.
    if (character.length === 1 && !/[\uFFFD\p{Co}]/u.test(character)) map[pairs[3 * i]! * 256 + pairs[3 * i + 1]!] = character.charCodeAt(0);
  });
  // The euro and registered signs, which code page 949 added to KS X 1001 and ICU lacks.
  map[0xa2e6] = 0x20ac;
  map[0xa2e7] = 0xae;
  const inKsX1001 = new Set(map);
  const others = Array.from({ length: 0xd7a4 - 0xac00 }, (_, i) => 0xac00 + i).filter((syllable) => !inKsX1001.has(syllable));
  let next = 0;
  for (let lead = 0x81; lead <= 0xc6 && next < others.length; lead += 1) {
    const last = lead < 0xa1 ? 0xfe : 0xa0;
    for (let trail = 0x41; trail <= last && next < others.length; trail += 1) {
      if ((trail > 0x5a && trail < 0x61) || (trail > 0x7a && trail < 0x81)) continue;
      map[lead * 256 + trail] = others[next]!;
      next += 1;
    }
  }
  table = map;
  return map;
}

/** The bytes read as EUC-KR: `fatal`, undefined at a sequence that is not one of it; else U+FFFD for it. */
export function decodeEucKr(bytes: Uint8Array, fatal: boolean): string | undefined {
  const characters = tableOf();
  const units = new Uint16Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      units[length++] = lead;
      i += 1;
      continue;
    }
    const trail = bytes[i + 1];
    const character = trail === undefined ? 0 : characters[lead * 256 + trail]!;
    if (character !== 0) {
      units[length++] = character;
      i += 2;
      continue;
    }
    if (fatal) return undefined;
    units[length++] = 0xfffd;
    // As the standard's decoder: an ASCII byte after a lead that starts no character is read again.
    i += trail !== undefined && trail >= 0x80 ? 2 : 1;
  }
  let text = '';
  for (let start = 0; start < length; start += 8192) text += String.fromCharCode(...units.subarray(start, Math.min(length, start + 8192)));
  return text;
}
