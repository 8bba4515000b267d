import { describe, expect, it } from '@jest/globals';
import { type CheckFile, checkCorpus, mixedFiles } from '../../scripts/encoding-corpus/check-corpus.ts';
import { CHECK_LOCALES } from '../../scripts/encoding-corpus/check-people.ts';
import { measure } from '../../scripts/encoding-corpus/measure.ts';
import { LOCALES } from '../../scripts/encoding-corpus/people.ts';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';

/**
 * The check corpus (scripts/encoding-corpus/check-corpus.ts): people files written by hand for
 * 35 locales, apart from the corpus the reader was built and first measured on, each locale's
 * people in a half the scorer was tuned on and a half it never was. Every file is read exactly
 * or refused, never misread; every file of a dozen people is read exactly, each Windows-1252
 * one as Windows-1252; UTF-8 encoded twice is repaired exactly; and the refusals, all of short
 * files, stay as few as measured. `node scripts/encoding-corpus/measure.ts --check` prints the
 * table.
 */
const files = checkCorpus().map((file) => ({ ...measure(file), file }));

describe('the check corpus', () => {
  it("holds at least 30 locales in their Excel code page, each with a dozen people in each half, the corpus's code pages, every one of Excel's", () => {
    expect(CHECK_LOCALES.length).toBeGreaterThanOrEqual(30);
    for (const locale of CHECK_LOCALES) expect([locale.tuning.length, locale.held.length]).toEqual([12, 12]);
    expect(new Set(CHECK_LOCALES.map((l) => l.codePage))).toEqual(new Set(LOCALES.map((l) => l.codePage)));
  });

  it.each(files.map(({ file, outcome, how }) => [file.id, outcome, how] as const))('%s: read exactly or refused, never misread', (_id, outcome) => {
    expect(outcome).not.toBe('misread');
  });

  it("every file of a dozen people is read exactly, in every locale and both halves, and with other locales' names; each Windows-1252 one as Windows-1252", () => {
    const dozens = files.filter(({ file }) => file.people >= 12 && !file.savedAs.startsWith('UTF-8'));
    expect(dozens.length).toBe(2 * CHECK_LOCALES.length + 3);
    expect(dozens.filter((f) => f.outcome !== 'exact').map((f) => `${f.file.id}: ${f.how}`)).toEqual([]);
    for (const { file } of dozens.filter(({ file }) => file.savedAs === 'windows-1252')) {
      expect(readSyncFile('people.csv', () => file.bytes)).toMatchObject({ ok: true, encoding: 'windows-1252', foundBy: 'detected', problems: [] });
    }
  });

  it('UTF-8 encoded twice, with its BOM too, through Windows-1252, 1250 and 1251, is repaired exactly', () => {
    const twice = files.filter(({ file }) => file.savedAs.startsWith('UTF-8 encoded twice'));
    expect(twice.length).toBe(4);
    for (const { outcome, how } of twice) expect([outcome, how]).toEqual(['exact', 'utf-8, repaired']);
  });

  it('refuses only short files, and no more than measured: 3 of 177 files of the tuning half, 5 of 180 of the held half', () => {
    const refused = (half: CheckFile['half']) => files.filter(({ file, outcome }) => file.half === half && outcome === 'refused');
    for (const { file } of [...refused('tuning'), ...refused('held')]) expect(file.people).toBeLessThanOrEqual(3);
    expect(refused('tuning').length).toBeLessThanOrEqual(3);
    expect(refused('held').length).toBeLessThanOrEqual(5);
  });

  it("files put together from two code pages' exports are refused or read exactly, but for the few whose foreign lines each read about as well either way: at most 3 of 728", () => {
    const mixed = mixedFiles().map(measure);
    expect(mixed.length).toBe(728);
    expect(mixed.filter((m) => m.outcome === 'misread').length).toBeLessThanOrEqual(3);
  });
});
