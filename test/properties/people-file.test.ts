import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readSyncFile } from '../../shared/directory-sync/read-file.ts';
import { validateRows } from '../../shared/directory-sync/validate-rows.ts';
import { type PeopleFormat, renderPeople } from '../../shared/directory-import/people-file.ts';
import { selectPeople } from '../../shared/directory-import/select-people.ts';
import type { SourcePerson } from '../../shared/directory-import/source-person.ts';
import { SOURCES } from '../../shared/directory-import/sources.ts';
import { anyText, shortText } from './support/arbitraries.ts';
import { runs } from './support/runs.ts';

/**
 * Round trip of the people file: whatever names and e-mails a source hands over, every person
 * the import writes reads back through the sync's own reader and checks as exactly what was
 * written, in YAML and in CSV; everyone else is listed as skipped. Names are drawn to break a
 * careless writer: YAML's words and numbers, comment and flow characters, quotes, formulas,
 * line breaks, bidi and zero-width characters, any code point, and long text.
 */

const RUNS = runs(300);

const tricky = fc.constantFrom(
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'False',
  '.inf',
  '-.nan',
  '0x1F',
  '0o17',
  '007',
  '1e3',
  '1:20',
  '2024-01-01',
  '# comment',
  'a # b',
  'a: b',
  '- item',
  '? key',
  '[x]',
  '{x}',
  '*alias',
  '&anchor',
  '!tag',
  '|',
  '>',
  '%YAML',
  '---',
  '...',
  '@at',
  '`tick`',
  '"quoted"',
  "'single'",
  '\\back\\slash',
  '=SUM(A1)',
  '+1',
  '-1',
  "'=x",
  ',comma',
  ';semi',
  'tab\there',
  'line\nbreak',
  'cr\r\nlf',
  '\u202Eevil',
  'tag\u{E0020}space',
  'zero\u200Bwidth',
  'join\u200Cer',
  '\uFEFFbom',
  'nbsp\u00A0',
  'ls\u2028ps\u2029',
  '山田 太郎',
  'محمد',
  '👩‍💻 Dev',
  'e\u0301',
);

const name: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: tricky },
  { weight: 4, arbitrary: fc.array(fc.oneof(tricky, shortText), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')) },
  { weight: 2, arbitrary: anyText(1) },
  { weight: 1, arbitrary: fc.constantFrom(null, 42, true, [], {}) },
);

const localPart = fc.oneof(
  fc.constantFrom('-dash', '=eq', '+plus', "o'brien", 'a.b', 'yes', 'null', '007', '#hash', '"quoted local"', 'ünï', 'x'),
  fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/),
);
const email: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(localPart, fc.nat(10_000)).map(([local, n]) => `${local}${n}@acme.example`) },
  { weight: 1, arbitrary: shortText },
);

const person = (index: number): fc.Arbitrary<SourcePerson> =>
  fc.record({ email, name, role: fc.constantFrom('owner', 'admin', 'user', 'observer', 'weird') }).map((fields) => ({
    id: String(index),
    ...fields,
    state: 'active' as const,
    phones: [{ raw: `+1415555${String(index).padStart(4, '0').slice(-4)}`, method: 'sms', usable: true }],
  }));

const people = fc.integer({ min: 1, max: 25 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => person(i))));

function readBack(format: PeopleFormat, text: string) {
  const read = readSyncFile(`people.${format}`, () => Buffer.from(text, 'utf8'));
  if (!read.ok) return { problems: read.problems };
  const validation = validateRows(read.rows, read.columns, read.problems);
  if (!validation.ok) return { problems: validation.problems };
  return { rows: validation.rows.map((row) => (row.remove ? { removes: row.email } : { email: row.email, name: row.name, phone: row.phone, role: row.role })) };
}

describe.each(['yaml', 'csv'] as const)('%s', (format) => {
  it('every person written reads back exact through the sync reader; nobody is lost without a reason', () => {
    fc.assert(
      fc.property(people, (sourcePeople) => {
        const selection = selectPeople(SOURCES.pagerduty, sourcePeople, { includeInvited: false, secrets: [] });
        expect(selection.rows.length + selection.skipped.length).toBe(sourcePeople.length);
        if (selection.rows.length === 0) return;
        const text = renderPeople(selection.rows, format, { withPhone: true, comment: 'People # of a test\nline two' });
        expect(readBack(format, text)).toEqual({ rows: selection.rows.map((row) => ({ email: row.email, name: row.name, phone: row.phone, role: row.role })) });
      }),
      { numRuns: RUNS },
    );
  });

  it('without phones too (Grafana OnCall): no phone column, a sync keeps current numbers', () => {
    fc.assert(
      fc.property(people, (sourcePeople) => {
        const selection = selectPeople(
          SOURCES['grafana-oncall'],
          sourcePeople.map((p) => ({ ...p, phones: undefined })),
          { includeInvited: false, secrets: [] },
        );
        if (selection.rows.length === 0) return;
        const text = renderPeople(selection.rows, format, { withPhone: false, comment: 'x' });
        expect(readBack(format, text)).toEqual({ rows: selection.rows.map((row) => ({ email: row.email, name: row.name, phone: undefined, role: row.role })) });
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

it('YAML shows invisible characters as escapes, so a diff cannot hide or reorder them', () => {
  const text = renderPeople([{ email: 'a@acme.example', name: 'a\u202Eb\u200Bc\u2028d\u{E0020}', phone: null, role: 'user' }], 'yaml', {
    withPhone: true,
    comment: 'x',
  });
  expect(text).toContain('name: "a\\u202Eb\\u200Bc\\u2028d\\U000E0020"');
  expect(text).not.toMatch(/[\u202E\u200B\u2028\u{E0020}]/u);
});
