import { createRequire } from 'node:module';
import type { CorpusFile } from './corpus.ts';
import { CHECK_LOCALES, type CheckLocale } from './check-people.ts';

/**
 * The check corpus: people files the reader was never built from, measured with the same
 * harness as the corpus (measure.ts `--check`) and held by test/shared/encoding-check-corpus.test.ts.
 * Each locale's hand-written people (check-people.ts), its tuning half and its held half
 * apart, saved as Excel saves "CSV (Comma delimited)" there: a dozen people, and short files
 * of two and three; a header as a person types it, in another order than the corpus's;
 * CRLF; a value quoted only when it holds the separator or a quote. Then UTF-8 a tool
 * encoded twice, and files of one locale's names with a few of other locales' and scripts'.
 * Its rows are written here, not with corpus.ts's, so a fault there does not hide one here;
 * both write a code page's bytes with inCodePage.
 *
 * The names a file must give are the names as people write them, composed (NFC): a
 * Vietnamese file holds `ễ` as `ê` and a combining tilde, as Windows-1258 must, and the
 * reader gives back `ễ`.
 */
const iconv = createRequire(import.meta.url)('iconv-lite') as {
  encode(text: string, encoding: string): Buffer;
  decode(bytes: Buffer, encoding: string): string;
};

/** Which half of a locale's people a file holds: the half the scorer was tuned on, or the held one. */
export type Half = 'tuning' | 'held';

export interface CheckFile extends CorpusFile {
  readonly half: Half;
  readonly people: number;
}

const encodes = (text: string, codePage: string) => iconv.decode(iconv.encode(text, codePage), codePage) === text;

/**
 * Text in a code page, each character whole when the code page has it, else (Windows-1258's
 * Vietnamese) the letter with one of its marks that the code page has, then the other mark
 * combining. Throws on a character the code page cannot hold at all: a check file holds
 * nothing Excel would have written as `?`.
 */
export function inCodePage(text: string, codePage: string): Buffer {
  let out = '';
  for (const character of text.normalize('NFC')) {
    if (encodes(character, codePage)) {
      out += character;
      continue;
    }
    const [base, ...marks] = [...character.normalize('NFD')];
    const split = marks
      .map((mark, i) => ({ letter: `${base}${mark}`.normalize('NFC'), rest: marks.filter((_, j) => j !== i).join('') }))
      .find(({ letter, rest }) => encodes(letter, codePage) && encodes(rest, codePage));
    const written = split ? split.letter + split.rest : character.normalize('NFD');
    if (!encodes(written, codePage)) throw new Error(`${codePage} cannot hold "${character}" of "${text}"`);
    out += written;
  }
  return iconv.encode(out, codePage);
}

/** An address for a person: the Latin letters of the name without accents, else a number. */
function emailOf(name: string, index: number, domain: string): string {
  const words = name
    .replaceAll('ß', 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .replace(/[ðÐ]/g, 'd')
    .replace(/[þÞ]/g, 'th')
    .replace(/ı/g, 'i')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[\s\u3000·・-]+/u)
    .map((word) => word.replace(/[^a-z]/g, ''))
    .filter((word) => word.length > 0);
  return words.length >= 2 ? `${words[0]}.${words.at(-1)}@${domain}` : `staff${100 + index}@${domain}`;
}

/** The text of a people file as Excel writes it: `Name,Email,Phone,Role`, CRLF, quoting only where needed. */
export function excelCsv(names: readonly string[], separator: string, domain: string): string {
  const cell = (value: string) => (value.includes(separator) || value.includes('"') ? `"${value.replaceAll('"', '""')}"` : value);
  const rows = names.map((name, i) => [
    name,
    emailOf(name, i, domain),
    i % 3 === 2 ? '' : `+1 555 01${String(i).padStart(2, '0')}`,
    i === 0 ? 'admin' : 'user',
  ]);
  return `${[['Name', 'Email', 'Phone', 'Role'], ...rows].map((row) => row.map(cell).join(separator)).join('\r\n')}\r\n`;
}

/** The files of one half of a locale: a dozen people, then two and three of them. */
function filesOf(source: CheckLocale, half: Half): CheckFile[] {
  const names = source[half];
  const slices: readonly (readonly [number, number])[] = [
    [0, 12],
    [0, 3],
    [3, 5],
    [6, 9],
    [10, 12],
  ];
  return slices.map(([start, end]) => {
    const chosen = names.slice(start, end);
    return {
      id: `${source.locale} ${half} ${chosen.length} people${chosen.length < 12 ? ` (${start + 1}-${end})` : ''}`,
      locale: source.locale,
      savedAs: source.codePage,
      bytes: inCodePage(excelCsv(chosen, source.separator, source.domain), source.codePage),
      names: chosen.map((name) => name.normalize('NFC')),
      half,
      people: chosen.length,
    };
  });
}

const checkLocale = (name: string) => CHECK_LOCALES.find((l) => l.locale === name)!;

/** UTF-8 that a tool read in a Windows code page and saved as UTF-8 again; with its BOM read so too, when it had one. */
function encodedTwice(source: CheckLocale, half: Half, through: string, bom: boolean): CheckFile {
  const names = source[half];
  const utf8 = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(excelCsv(names, source.separator, source.domain), 'utf8')]);
  return {
    id: `${source.locale} ${half} UTF-8 encoded twice through ${through}${bom ? ' (with its BOM)' : ''}`,
    locale: source.locale,
    savedAs: `UTF-8 encoded twice through ${through}`,
    bytes: Buffer.from(new TextDecoder(through).decode(utf8), 'utf8'),
    names,
    half,
    people: names.length,
  };
}

/** One file of two locales' people in one code page: the names of the second must be in the first's code page. */
function together(first: CheckLocale, second: readonly string[], half: Half): CheckFile {
  const names = [...first[half].slice(0, 9), ...second];
  return {
    id: `${first.locale} ${half} with ${second.length} other names`,
    locale: first.locale,
    savedAs: first.codePage,
    bytes: inCodePage(excelCsv(names, first.separator, first.domain), first.codePage),
    names,
    half,
    people: names.length,
  };
}

export function checkCorpus(): CheckFile[] {
  return [
    ...CHECK_LOCALES.flatMap((source) => [...filesOf(source, 'tuning'), ...filesOf(source, 'held')]),
    encodedTwice(checkLocale('es-ES'), 'tuning', 'windows-1252', false),
    encodedTwice(checkLocale('fr-FR'), 'held', 'windows-1252', true),
    encodedTwice(checkLocale('pl-PL'), 'held', 'windows-1250', false),
    encodedTwice(checkLocale('ru-RU'), 'held', 'windows-1251', false),
    // Greek Excel: a German and an English colleague, their names as Windows-1253 holds them.
    together(checkLocale('el-GR'), ['Thomas Schmidt', 'Anna Weber', 'Oliver Brown'], 'tuning'),
    // A Turkish company's file with Greek-Cypriot and Kurdish colleagues, in Windows-1254.
    together(checkLocale('tr-TR'), ['Hêvî Kaya', 'Andreas Ioannou', 'Rojda Şêx'], 'held'),
    // French Excel: a Swedish, a Spanish and a Portuguese colleague.
    together(checkLocale('fr-FR'), ['Åsa Nyström', 'Íñigo Peña', 'João Gonçalves'], 'held'),
  ];
}

/**
 * Files put together from two exports in different code pages (`cat` of two files, the second
 * header dropped), for each ordered pair of Excel's code pages, each's first locale: a dozen
 * and a dozen, ten and two, two and ten, eleven and one people. No one code page reads them:
 * the reader must refuse them, or read every name exactly (when the parts read alike).
 */
export function mixedFiles(): CorpusFile[] {
  const first = [...new Map(CHECK_LOCALES.map((source) => [source.codePage, source])).values()];
  const sizes = [
    [12, 12],
    [10, 2],
    [2, 10],
    [11, 1],
  ] as const;
  return first.flatMap((a) =>
    first
      .filter((b) => b !== a)
      .flatMap((b) =>
        sizes.map(([inA, inB]) => {
          const head = inCodePage(excelCsv(a.tuning.slice(0, inA), ',', a.domain), a.codePage);
          const tail = inCodePage(excelCsv(b.held.slice(0, inB), ',', b.domain), b.codePage);
          return {
            id: `${a.locale} ${a.codePage} ${inA} then ${b.locale} ${b.codePage} ${inB}`,
            locale: `${a.locale}+${b.locale}`,
            savedAs: `${a.codePage} then ${b.codePage}`,
            bytes: Buffer.concat([head, tail.subarray(tail.indexOf(0x0a) + 1)]),
            names: [...a.tuning.slice(0, inA), ...b.held.slice(0, inB)].map((name) => name.normalize('NFC')),
          };
        }),
      ),
  );
}
