import { createRequire } from 'node:module';
import { inCodePage } from './check-corpus.ts';
import { LOCALES, type LocaleSource } from './people.ts';

/**
 * The corpus of people files the sync reader is measured on (measure.ts) and held to
 * (test/shared/encoding-corpus.test.ts): each locale's people (people.ts) saved as Excel
 * saves "CSV (Comma delimited)" there, and the other ways people's tools save them: "CSV
 * UTF-8" (with a BOM), plain UTF-8, "Unicode text" (UTF-16 LE, tabs), "CSV (MS-DOS)" (DOS
 * 437, 850, 852, 866), an old Mac's Mac Roman, and UTF-8 that a tool encoded twice. Encoded
 * with iconv-lite, an encoder independent of the decoders under test.
 */
const iconv = createRequire(import.meta.url)('iconv-lite') as {
  encode(text: string, encoding: string): Buffer;
  decode(bytes: Buffer, encoding: string): string;
};

export interface CorpusFile {
  /** `de-DE windows-1252`, `es-ES utf-8 twice through windows-1252`. */
  readonly id: string;
  readonly locale: string;
  /** How it was saved: the code page, or a description. */
  readonly savedAs: string;
  readonly bytes: Buffer;
  /** The names as the file holds them, which the reader must give exactly or refuse. */
  readonly names: readonly string[];
  /** Why the reader may refuse it (people.ts), if it may. */
  readonly ambiguous?: string;
}

/** ASCII of a name for an address: accents dropped, letters with no ASCII form spelt out; empty for other scripts. */
function ascii(text: string): string {
  const spelt = text.replace(/[łŁ]/g, 'l').replace(/[øØ]/g, 'o').replace(/ß/g, 'ss').replace(/[æÆ]/g, 'ae').replace(/[đĐ]/g, 'd').replace(/ı/g, 'i');
  return spelt
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** The rows of a locale's people: e-mail, name, phone (every fourth empty), role (the first an admin). */
export function rowsOf(source: LocaleSource, names: readonly string[] = source.names): string[][] {
  return names.map((name, i) => {
    const words = name.split(/[\s\u3000]+/);
    const local = words.map(ascii).filter((w) => w !== '');
    const email = local.length >= 2 ? `${local[0]}.${local.at(-1)}@${source.domain}` : `employee${1000 + i}@${source.domain}`;
    return [email, name, i % 4 === 3 ? '' : `${source.phone}${10 + i}`, i === 0 ? 'admin' : i % 3 === 0 ? 'user' : ''];
  });
}

/** A CSV file as Excel writes it: a header row, CRLF, a value quoted only when it holds the separator or a quote. */
export function csvOf(rows: readonly (readonly string[])[], separator: string): string {
  const cell = (value: string) => (value.includes(separator) || value.includes('"') ? `"${value.replaceAll('"', '""')}"` : value);
  return `${[['email', 'name', 'phone', 'role'], ...rows].map((row) => row.map(cell).join(separator)).join('\r\n')}\r\n`;
}

/** A file of these names saved in a code page: its bytes, and its names as it holds them. */
export function savedIn(source: LocaleSource, codePage: string, names: readonly string[] = source.names, separator: string = source.separator) {
  const bytes = inCodePage(csvOf(rowsOf(source, names), separator), codePage);
  // The reader composes Windows-1258's letters and tone marks again (code-pages.ts).
  const read = iconv.decode(bytes, codePage);
  const held = (codePage === 'windows-1258' ? read.normalize('NFC') : read).split('\r\n').slice(1, -1);
  return { bytes, names: held.map((line) => line.split(separator)[1]!) };
}

const locale = (name: string) => LOCALES.find((l) => l.locale === name)!;

function file(source: LocaleSource, codePage: string, savedAs = codePage): CorpusFile {
  const { bytes, names } = savedIn(source, codePage);
  return { id: `${source.locale} ${savedAs}`, locale: source.locale, savedAs, bytes, names, ...(source.ambiguous ? { ambiguous: source.ambiguous } : {}) };
}

/**
 * UTF-8 that was read in a code page and saved as UTF-8 again. Read as Windows and browsers
 * read it, a byte the code page leaves undefined (0x81 in Windows-1252) as the control of the
 * same number, not as U+FFFD: iconv-lite's decoder would lose it.
 */
function twice(source: LocaleSource, through: string): CorpusFile {
  const text = csvOf(rowsOf(source), source.separator);
  const misread = new TextDecoder(through).decode(Buffer.from(text, 'utf8'));
  return {
    id: `${source.locale} utf-8 encoded twice through ${through}`,
    locale: source.locale,
    savedAs: `UTF-8 encoded twice through ${through}`,
    bytes: Buffer.from(misread, 'utf8'),
    names: source.names,
  };
}

export function corpus(): CorpusFile[] {
  const german = locale('de-DE');
  const french = locale('fr-FR');
  const japanese = locale('ja-JP');
  const utf16 = savedIn(japanese, 'utf16le', japanese.names, '\t');
  return [
    ...LOCALES.map((source) => file(source, source.codePage)),
    { ...file(locale('en-US'), 'utf8'), id: 'en-US utf-8', savedAs: 'UTF-8, no BOM' },
    {
      ...file(french, 'utf8'),
      id: 'fr-FR utf-8 with BOM',
      savedAs: 'CSV UTF-8 (BOM)',
      bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file(french, 'utf8').bytes]),
    },
    {
      id: 'ja-JP utf-16le',
      locale: 'ja-JP',
      savedAs: 'Unicode text (UTF-16 LE, BOM, tabs)',
      bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), utf16.bytes]),
      names: utf16.names,
    },
    file(german, 'cp850', 'CSV (MS-DOS) cp850'),
    file(locale('en-US'), 'cp437', 'CSV (MS-DOS) cp437'),
    file(locale('pl-PL'), 'cp852', 'CSV (MS-DOS) cp852'),
    file(locale('ru-RU'), 'cp866', 'CSV (MS-DOS) cp866'),
    file(french, 'macintosh', 'Mac Roman'),
    file(german, 'macintosh', 'Mac Roman'),
    twice(locale('es-ES'), 'windows-1252'),
    twice(locale('pl-PL'), 'windows-1250'),
    twice(locale('ru-RU'), 'windows-1251'),
  ];
}
