import { holdsSecret } from '../redact.ts';
import { controlCharacters } from '../directory-sync/control-characters.ts';
import { describeRowProblem, type RowProblem } from '../directory-sync/row-problem.ts';
import { type SyncRow, validateRows } from '../directory-sync/validate-rows.ts';
import { choosePhone, describePhone } from './phones.ts';
import { mappedRole, type DirectoryRole } from './roles.ts';
import type { SourcePerson } from './source-person.ts';
import type { Source } from './sources.ts';

/** A row of the people file: what `directory sync` reads back from it, exactly. */
export interface ImportedRow {
  readonly email: string;
  readonly name: string;
  /** E.164; null: the source has no number for them (a sync clears one); undefined: the source gives no phones at all. */
  readonly phone: string | null | undefined;
  readonly role: DirectoryRole;
}

/**
 * Why a person is not in the file. `blocked`: blocked at the source; `invited`: has not accepted
 * the invitation (kept with --include-invited); `unusable`: an e-mail or name the directory
 * cannot take (the sync's own checks say which); `duplicate`: an e-mail an earlier person has;
 * `gone`: removed at the source while the import read it.
 */
export type SkipReason = 'blocked' | 'invited' | 'unusable' | 'duplicate' | 'gone';
export const SKIP_REASONS: readonly SkipReason[] = ['blocked', 'invited', 'unusable', 'duplicate', 'gone'];

export interface SkippedPerson {
  /** The source's id of the user. */
  readonly id: string;
  /** As the source gave it (cut to 100 characters), '' when it gave none. */
  readonly email: string;
  readonly reason: SkipReason;
  readonly why: string;
}

/** How many people had each role of the source, and what it became. */
export interface RoleCount {
  readonly from: string;
  readonly to: DirectoryRole;
  readonly people: number;
  /** False for a role the table does not list (a custom role): it became a user. */
  readonly known: boolean;
}

/** A person with several numbers: the one taken and the others. */
export interface PhoneNote {
  readonly email: string;
  readonly phone: string;
  readonly how: string;
  readonly notTaken: readonly { readonly phone: string; readonly how: string }[];
}

export interface Selection {
  /** Sorted by e-mail (letter case ignored), so that two imports of the same people give the same file. */
  readonly rows: readonly ImportedRow[];
  readonly skipped: readonly SkippedPerson[];
  readonly roles: readonly RoleCount[];
  readonly phones: {
    /** People in the file with a number, and without (undefined counts where the source gives no phones). */
    readonly found: number;
    readonly missing: number;
    /** Numbers that do not read as international ones (no country code), not taken. */
    readonly unreadable: number;
  };
  readonly severalNumbers: readonly PhoneNote[];
}

const MAX_SHOWN = 100;
const MAX_WHY = 300;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The people to write, by one documented rule (docs/migrate.md): blocked people are left out;
 * people only invited are left out unless `includeInvited`; every other person is checked by
 * the sync's own rules (the e-mail and name the directory takes, no control or replaced
 * character) and left out, saying why, when they fail them; an e-mail already taken by an
 * earlier person is left out. A person whose e-mail, name or phone holds the source's key in
 * any form shared/redact.ts finds (a source that echoes it) is left out too: the key is written
 * to no file. Each person's role goes through the role table, and their phone through the phone
 * rule (phones.ts). Nobody is dropped without a reason in `skipped`.
 */
export function selectPeople(source: Source, people: readonly SourcePerson[], options: { includeInvited: boolean; secrets: readonly string[] }): Selection {
  const rows: ImportedRow[] = [];
  const skipped: SkippedPerson[] = [];
  const roles = new Map<string, RoleCount>();
  const severalNumbers: PhoneNote[] = [];
  const firstWith = new Map<string, string>();
  let found = 0;
  let missing = 0;
  let unreadable = 0;
  for (const person of people) {
    const email = typeof person.email === 'string' ? cut(person.email.trim(), MAX_SHOWN) : '';
    const skip = (reason: SkipReason, why: string) => skipped.push({ id: person.id, email, reason, why: cut(why, MAX_WHY) });
    if (person.unreadable) {
      skip('unusable', `${person.unreadable} (${person.id})`);
      continue;
    }
    if (person.gone) {
      skip('gone', `removed from ${source.name} while the import read it`);
      continue;
    }
    if (person.state === 'blocked') {
      skip('blocked', `blocked in ${source.name}`);
      continue;
    }
    if (person.state === 'invited' && !options.includeInvited) {
      skip('invited', `has not accepted their ${source.name} invitation yet`);
      continue;
    }
    const mapped = mappedRole(source.id, person.role);
    const choice = person.phones === undefined ? undefined : choosePhone(person.phones);
    const values: Record<string, unknown> = {
      email: person.email,
      name: person.name,
      ...(choice === undefined ? {} : { phone: choice.phone ?? '' }),
      role: mapped.role,
    };
    const quoting = Object.keys(values).filter((field) => typeof values[field] === 'string' && holdsSecret(values[field], options.secrets));
    if (quoting.length > 0) {
      skip('unusable', `its ${quoting.join(' and ')} ${quoting.length === 1 ? 'holds' : 'hold'} the key in ${source.keyVariable}, which is written nowhere`);
      continue;
    }
    const checked = checkedRow(values);
    if ('problems' in checked) {
      skip('unusable', checked.problems.map(describeRowProblem).join('; '));
      continue;
    }
    const { row } = checked;
    const key = row.email.toLowerCase();
    const earlier = firstWith.get(key);
    if (earlier !== undefined) {
      skip('duplicate', `the same e-mail as ${earlier}, which is kept`);
      continue;
    }
    firstWith.set(key, person.id);
    rows.push({ email: row.email, name: row.name, phone: row.phone, role: mapped.role });

    const from = person.role?.trim() || '(none)';
    const roleKey = `${from.toLowerCase()}\u0000${mapped.role}`;
    const count = roles.get(roleKey);
    roles.set(roleKey, { from: cut(from, 60), to: mapped.role, people: (count?.people ?? 0) + 1, known: mapped.known });
    if (choice) {
      unreadable += choice.unreadable.length;
      if (choice.phone && choice.taken) {
        found += 1;
        if (choice.others.length > 0)
          severalNumbers.push({
            email: row.email,
            phone: choice.phone,
            how: describePhone(choice.taken),
            notTaken: choice.others.map((other) => ({ phone: other.phone, how: describePhone(other.from) })),
          });
      } else missing += 1;
    }
  }
  const byEmail = (a: ImportedRow, b: ImportedRow) => {
    const [x, y] = [a.email.toLowerCase(), b.email.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return {
    rows: rows.sort(byEmail),
    skipped,
    roles: [...roles.values()].sort((a, b) => b.people - a.people || a.from.localeCompare(b.from)),
    phones: { found, missing, unreadable },
    severalNumbers,
  };
}

/** U+FFFD, which the sync's reader refuses in a file (replaced-characters.ts). */
const REPLACEMENT = '\uFFFD';

/**
 * The person's row as the sync reads it, or what the sync would refuse in these values, by its
 * own checks: a character a decoder replaced (U+FFFD), a broken surrogate (which no UTF-8 file
 * can hold), a control character (control-characters.ts), then the directory's rules for
 * e-mail, name, phone and role (validate-rows.ts).
 */
function checkedRow(values: Record<string, unknown>): { row: Extract<SyncRow, { remove: false }> } | { problems: RowProblem[] } {
  const rows = [{ row: 1, values }];
  const replaced = Object.entries(values)
    .filter(([, value]) => typeof value === 'string' && value.includes(REPLACEMENT))
    .map(([field]) => ({ field, problem: 'holds U+FFFD, the mark of a character that was lost before it reached the import' }));
  const broken = Object.entries(values)
    .filter(([, value]) => typeof value === 'string' && !value.isWellFormed())
    .map(([field]) => ({ field, problem: 'holds a broken character (an unpaired surrogate)' }));
  // The reader's words end with advice about a file's encoding, which is not where this came from.
  const controls = controlCharacters(rows, '').map(({ field, problem }) => ({ field, problem: problem.split(':')[0]! }));
  const early = [...replaced, ...broken, ...controls];
  if (early.length > 0) return { problems: early };
  const validation = validateRows(rows, undefined);
  if (!validation.ok) return { problems: validation.problems.map(({ field, problem }) => ({ field, problem })) };
  // An imported person has no remove column: its row is never a removal.
  return { row: validation.rows[0] as Extract<SyncRow, { remove: false }> };
}
