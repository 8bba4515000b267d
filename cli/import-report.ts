import type { PeopleFormat } from '../shared/directory-import/people-file.ts';
import type { SourceRead } from '../shared/directory-import/reader.ts';
import { SKIP_REASONS, type Selection, type SkipReason } from '../shared/directory-import/select-people.ts';
import type { Source } from '../shared/directory-import/sources.ts';
import type { ImportDocument } from './json-documents.ts';
import { columns } from './output.ts';

/** The most entries of each list a person is shown; --json has them all. */
const MOST_SHOWN = 20;

const SKIP_WORDS: Readonly<Record<SkipReason, string>> = {
  blocked: 'blocked',
  invited: 'only invited',
  unusable: 'unusable e-mail or name',
  duplicate: 'e-mail taken by another',
  gone: 'removed meanwhile',
};

/** What the source cannot give, said once in the summary and in --json's `notes`. */
export function importNotes(source: Source, read: SourceRead, selection: Selection, readingNotes: readonly string[] = []): string[] {
  const notes: string[] = [...readingNotes];
  if (!source.givesNames && !source.givesPhones) {
    notes.push(
      `${source.name}'s users API gives no display names and no phone numbers: each person's username stands in for their name, and the file has no phone column, so a sync keeps each entry's current number.`,
    );
  }
  if (read.repeats > 0) notes.push(`${read.repeats} people were listed on two pages (the list changed while it was read); each is in the file once.`);
  const unknown = selection.roles.filter((role) => !role.known);
  if (unknown.length > 0) {
    notes.push(
      `Roles the table does not list became user (never admin): ${unknown.map((role) => `${role.from} (${role.people})`).join(', ')}. Make someone an admin in the file if they should be.`,
    );
  }
  if (selection.phones.unreadable > 0) {
    notes.push(`${selection.phones.unreadable} numbers were not taken: they do not read as international ones (no country code).`);
  }
  return notes;
}

export function importDocument(
  source: Source,
  facts: { base: string; file: string; format: PeopleFormat; requests: number; notes: readonly string[] },
  read: SourceRead,
  selection: Selection,
): ImportDocument {
  const skippedBy = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, selection.skipped.filter((s) => s.reason === reason).length])) as Record<
    SkipReason,
    number
  >;
  return {
    source: source.id,
    base: facts.base,
    file: facts.file,
    format: facts.format,
    summary: {
      listed: read.people.length,
      written: selection.rows.length,
      skipped: selection.skipped.length,
      skippedBy,
      pages: read.pages,
      requests: facts.requests,
      listedTwice: read.repeats,
      phonesFound: source.givesPhones ? selection.phones.found : null,
      phonesMissing: source.givesPhones ? selection.phones.missing : null,
      phonesUnreadable: selection.phones.unreadable,
    },
    roles: [...selection.roles],
    skipped: [...selection.skipped],
    severalNumbers: [...selection.severalNumbers],
    notes: importNotes(source, read, selection, facts.notes),
  };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const shownOf = <T>(items: readonly T[], line: (item: T) => string[]): string[][] => items.slice(0, MOST_SHOWN).map(line);
const more = (items: readonly unknown[]) => (items.length > MOST_SHOWN ? [`  … and ${items.length - MOST_SHOWN} more (--json lists every one)`] : []);

/** The summary a person reads: what was read and written, then who was left out and which numbers were taken. */
export function humanImport(document: ImportDocument, source: Source, includeInvited: boolean): string[] {
  const { summary } = document;
  const lines = [
    `Read ${plural(summary.listed, 'person', 'people')} from ${source.name} (${document.base}): ${plural(summary.pages, 'page')}, ${plural(summary.requests, 'request')}.`,
    `Wrote ${plural(summary.written, 'person', 'people')} to ${document.file} (${document.format === 'yaml' ? 'YAML' : 'CSV'}).`,
  ];
  const phones =
    summary.phonesFound === null
      ? `none: ${source.name} gives no phone numbers`
      : `${summary.phonesFound} with a number, ${summary.phonesMissing} without${document.severalNumbers.length ? `; ${plural(document.severalNumbers.length, 'person', 'people')} had several (below)` : ''}`;
  const roles = document.roles.map((role) => `${role.from} → ${role.to} ${role.people}`).join(', ') || 'none';
  const hint = (reason: SkipReason) => (reason === 'invited' && !includeInvited ? ' (--include-invited keeps them)' : '');
  const by = SKIP_REASONS.filter((reason) => summary.skippedBy[reason] > 0).map(
    (reason) => `${summary.skippedBy[reason]} ${SKIP_WORDS[reason]}${hint(reason)}`,
  );
  lines.push(
    ...columns(
      [
        ['phones', phones],
        ['roles', roles],
        ['skipped', summary.skipped === 0 ? 'nobody' : `${summary.skipped}: ${by.join(', ')}`],
      ],
      { indent: '  ' },
    ),
  );
  if (document.skipped.length > 0) {
    lines.push(
      'Skipped:',
      ...columns(
        shownOf(document.skipped, (s) => [s.email || `(${s.id})`, s.why]),
        { indent: '  ' },
      ),
      ...more(document.skipped),
    );
  }
  if (document.severalNumbers.length > 0) {
    lines.push(
      'Several numbers (a usable one first, then the order in the source):',
      ...columns(
        shownOf(document.severalNumbers, (n) => [
          n.email,
          `took ${n.phone} (${n.how}); not taken: ${n.notTaken.map((other) => `${other.phone} (${other.how})`).join(', ')}`,
        ]),
        { indent: '  ' },
      ),
      ...more(document.severalNumbers),
    );
  }
  lines.push(...document.notes);
  lines.push(`Next: review ${document.file}, then see the plan: pagerly directory sync ${document.file} --dry-run`);
  return lines;
}
