import { describe, expect, it } from '@jest/globals';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { corpus, savedIn } from '../../scripts/encoding-corpus/corpus.ts';
import { measure } from '../../scripts/encoding-corpus/measure.ts';
import { HELD_OUT_LOCALES, heldOutNames } from '../../scripts/encoding-corpus/held-out-names.ts';
import { LOCALES } from '../../scripts/encoding-corpus/people.ts';
import { statisticsSource } from '../../scripts/name-statistics/build.ts';
import { readFileSync } from 'node:fs';

/**
 * The corpus of people files as Excel saves them in each of its locales' code pages, and as
 * other tools save them (scripts/encoding-corpus/): every Windows-1252 file is read exactly,
 * no file is ever misread, and a file is refused only where the corpus says why. Then names
 * the statistics were not built from, files of one or two people, and files whose names are
 * all ASCII but one: never misread. `node scripts/encoding-corpus/measure.ts` prints the table.
 */
const files = corpus();

/** The names the reader gives, or undefined when it refuses the file. */
function namesRead(bytes: Uint8Array): unknown[] | undefined {
  const read = readSyncFile('people.csv', () => bytes);
  return read.ok ? read.rows.map((row) => row.values['name']) : undefined;
}

describe('the corpus', () => {
  it('holds at least 20 locales in their Excel code page, and the other ways tools save', () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(LOCALES.map((l) => l.codePage))).toEqual(
      new Set([
        'windows-1252',
        'windows-1250',
        'windows-1251',
        'windows-1253',
        'windows-1254',
        'windows-1255',
        'windows-1256',
        'windows-1257',
        'windows-1258',
        'windows-874',
        'cp932',
        'cp936',
        'cp949',
        'cp950',
      ]),
    );
    for (const locale of LOCALES) expect(locale.names.length).toBeGreaterThanOrEqual(12);
  });

  it.each(files.map((file) => [file.id, file] as const))('%s: read exactly, or refused only where listed with a reason', (_id, file) => {
    const { outcome, how } = measure(file);
    if (outcome === 'refused') expect(file.ambiguous).toEqual(expect.any(String));
    expect([outcome, how]).toEqual([file.ambiguous ? expect.stringMatching(/^(exact|refused)$/) : 'exact', expect.any(String)]);
  });

  it('every Windows-1252 file is read exactly, as Windows-1252', () => {
    const western = files.filter((file) => file.savedAs === 'windows-1252');
    expect(western.length).toBeGreaterThanOrEqual(13);
    for (const file of western) {
      const read = readSyncFile('people.csv', () => file.bytes);
      expect(read).toMatchObject({ ok: true, encoding: 'windows-1252', problems: [] });
      expect(namesRead(file.bytes)).toEqual(file.names);
    }
  });
});

/** A seeded choice, so a failure names a file that can be made again. */
function chooser(seed: number) {
  let state = seed;
  return <T>(list: readonly T[]): T => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return list[Math.floor((state / 2147483648) * list.length)]!;
  };
}

describe('names the statistics were not built from', () => {
  it('are the held-out names: none of their words is in the lists the statistics are built from, and each locale keeps enough', () => {
    for (const locale of HELD_OUT_LOCALES) {
      const { given, family } = heldOutNames(locale);
      expect(given.length + family.length).toBeGreaterThanOrEqual(6);
    }
  });

  it.each(HELD_OUT_LOCALES)('%s: files of 1 to 12 held-out names are read exactly or refused, never misread; most are read', (locale) => {
    const source = LOCALES.find((l) => l.locale === locale)!;
    const { given, family } = heldOutNames(locale);
    const words = [...given, ...family];
    const pick = chooser(locale.length * 7919);
    let read = 0;
    for (let file = 0; file < 30; file += 1) {
      const count = 1 + (file % 12);
      const { bytes, names } = savedIn(
        source,
        source.codePage,
        Array.from({ length: count }, () => `${pick(words)} ${pick(words)}`),
      );
      const sent = namesRead(bytes);
      if (sent !== undefined) {
        expect(sent).toEqual(names);
        read += 1;
      }
    }
    expect(read).toBeGreaterThanOrEqual(20);
  });
});

describe('short files and files with one name beyond ASCII', () => {
  const ASCII = [
    'John Smith',
    'Anna Berg',
    'Peter Nolan',
    'Maria Costa',
    'David Lee',
    'Laura Stone',
    'Mark Evans',
    'Sara Klein',
    'Tom Baker',
    'Nina Ross',
    'Paul Wood',
  ];

  it.each(LOCALES.map((l) => [l.locale, l] as const))(
    '%s: every file of one or two of its people is read exactly or refused, never misread',
    (_locale, source) => {
      for (const count of [1, 2]) {
        for (let start = 0; start + count <= source.names.length; start += 1) {
          const { bytes, names } = savedIn(source, source.codePage, source.names.slice(start, start + count));
          const sent = namesRead(bytes);
          if (sent !== undefined) expect(sent).toEqual(names);
        }
      }
    },
  );

  it.each(LOCALES.map((l) => [l.locale, l] as const))(
    '%s: eleven ASCII names and one of its own: read exactly or refused, never misread',
    (_locale, source) => {
      for (const own of source.names.filter((name) => /[^\x00-\x7F]/.test(name))) {
        const { bytes, names } = savedIn(source, source.codePage, [...ASCII, own]);
        const sent = namesRead(bytes);
        if (sent !== undefined) expect(sent).toEqual(names);
      }
    },
  );
});

describe('the name statistics', () => {
  it('are what scripts/name-statistics/build.ts writes from the lists (run it after changing them)', () => {
    expect(readFileSync(new URL('../../shared/directory-sync/name-statistics.ts', import.meta.url), 'utf8')).toBe(statisticsSource());
  });
});
