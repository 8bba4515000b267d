import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { inCodePage } from '../../scripts/encoding-corpus/check-corpus.ts';
import { CHECK_LOCALES } from '../../scripts/encoding-corpus/check-people.ts';

/**
 * The conformance table's row for people files: a file is read exactly when its encoding is
 * clear, refused when it is not, never written misread; by the same reader on every surface
 * that syncs the directory from a file (people-files.test.ts runs each file here on each).
 * Each file names a path of the promise: a locale's Excel code page, another tool's encoding, an
 * encoding that cannot be told, bytes that are no one's names, a file of two code pages, one
 * too large. The e-mails are `person1@acme.example`, `person2@…` in order.
 */
const iconv = createRequire(import.meta.url)('iconv-lite') as { encode(text: string, encoding: string): Buffer };

export interface PeopleFile {
  readonly name: string;
  /** The file's bytes; a number for a file of that many bytes, written sparse. */
  readonly bytes: Buffer | number;
  /** Read: the names that must arrive, in order. Refused: a fragment of why. */
  readonly expect: { readonly names: readonly string[] } | { readonly refused: string };
}

/** A CSV file as Excel writes it, with the surfaces' e-mails. */
const csv = (names: readonly string[], separator = ',') =>
  `email${separator}name\r\n${names.map((name, i) => `person${i + 1}@acme.example${separator}${name}`).join('\r\n')}\r\n`;

const locale = (name: string) => CHECK_LOCALES.find((l) => l.locale === name)!;
const dozen = (name: string, half: 'tuning' | 'held' = 'held'): PeopleFile => {
  const source = locale(name);
  return {
    name: `${name} in ${source.codePage} (Excel's "CSV")`,
    bytes: inCodePage(csv(source[half], source.separator), source.codePage),
    expect: { names: source[half] },
  };
};

/** Garbage the scorer once took as names: every other code page reads a symbol in it, DOS 852 "Anaóúąžę". */
const GARBAGE = Buffer.concat([Buffer.from('email,name\r\nperson1@acme.example,Ana'), Buffer.from([0xa2, 0xa3, 0xa5, 0xa7, 0xa9]), Buffer.from('\r\n')]);

/** A PNG image saved as people.csv: its signature, a header chunk and deflated pixels. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 16, 0, 0, 0, 16, 8, 2, 0, 0, 0, 0x90, 0x91, 0x68, 0x36]),
  deflateSync(Buffer.from(Array.from({ length: 800 }, (_, i) => (i * 37) % 256))),
]);

const FRENCH = ['Françoise Lebœuf', 'Joël Ménard', 'Anaïs Girard', 'Thérèse Garnier', 'Clément Rivière'];
const POLISH = ['Łukasz Wróblewski', 'Małgorzata Żak', 'Paweł Szczęsny', 'Agnieszka Dąbrowska', 'Grzegorz Śliwiński'];

export const PEOPLE_FILES: readonly PeopleFile[] = [
  dozen('fr-FR'),
  dozen('is-IS', 'tuning'),
  dozen('cs-CZ'),
  dozen('uk-UA'),
  dozen('tr-TR'),
  dozen('vi-VN'),
  dozen('ja-JP'),
  {
    name: 'UTF-8 encoded twice through Windows-1252 ("JosÃ©")',
    bytes: Buffer.from(new TextDecoder('windows-1252').decode(Buffer.from(csv(locale('es-ES').held), 'utf8')), 'utf8'),
    expect: { names: locale('es-ES').held },
  },
  { name: 'UTF-16 LE without a BOM', bytes: Buffer.from(csv(locale('ru-RU').held), 'utf16le'), expect: { names: locale('ru-RU').held } },
  {
    name: 'CSV injection in names, as text',
    bytes: iconv.encode(csv(['"=HYPERLINK(""http://evil.example"",""Zoë"")"', '+SUM(1;2) Renée', '@cmd Noël']), 'windows-1252'),
    expect: { names: ['=HYPERLINK("http://evil.example","Zoë")', '+SUM(1;2) Renée', '@cmd Noël'] },
  },
  {
    name: 'one Chinese name that EUC-KR reads as a Korean one ("何磊", "부자")',
    bytes: iconv.encode(csv(['何磊']), 'gb18030'),
    expect: { refused: 'cannot be told from its bytes' },
  },
  { name: 'garbage only one code page reads as letters', bytes: GARBAGE, expect: { refused: 'no likelier as names than as letters drawn at random' } },
  {
    name: 'two exports in two code pages, one after the other',
    bytes: Buffer.concat([iconv.encode(csv(FRENCH), 'windows-1252'), iconv.encode(csv(POLISH).split('\r\n').slice(1).join('\r\n'), 'windows-1250')]),
    expect: { refused: 'it is not all in one code page' },
  },
  { name: 'a PNG image saved as .csv', bytes: PNG, expect: { refused: 'no code page this reader tells apart reads it as names' } },
  {
    name: 'a control character in a name',
    bytes: Buffer.from(csv(['Zoë \u001b[2JFrançois']), 'utf8'),
    expect: { refused: 'holds the control character U+001B' },
  },
  { name: 'a file of 50 MB', bytes: 50 * 1024 * 1024, expect: { refused: 'larger than 10 MiB' } },
];
