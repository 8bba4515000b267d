import type { SourcePhone } from './phones.ts';

/**
 * A person as a source gave them, not checked yet: the fields the import uses, read from the
 * vendor's user object without judging their values (people.ts does, by the sync's rules).
 */
export interface SourcePerson {
  /** The source's id of the user; the place in the list where it gives none. */
  readonly id: string;
  readonly email: unknown;
  /** The display name; Grafana OnCall's username, which stands in for one. */
  readonly name: unknown;
  /** The role's name as the source gives it. */
  readonly role: string | undefined;
  /**
   * `blocked`: Opsgenie's `blocked` (a user blocked, e.g. by a subscription change);
   * `invited`: not yet accepted (Opsgenie's `verified: false`, PagerDuty's `invitation_sent: true`).
   */
  readonly state: 'active' | 'blocked' | 'invited';
  /** The phone numbers, in the source's order; undefined where the source gives none at all (Grafana OnCall). */
  readonly phones: readonly SourcePhone[] | undefined;
  /** What was wrong with the entry itself (not an object, say): it is skipped, saying this. */
  readonly unreadable?: string | undefined;
  /** The source no longer knew the user when its details were read (removed meanwhile). */
  readonly gone?: boolean | undefined;
}

/** The entry of a list as an object, or undefined. */
export const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A link a page gives to the next one, or undefined where it gives none (absent, null, empty: the last page). */
export const linkOf = (value: unknown): unknown => (value === undefined || value === null || value === '' ? undefined : value);

/** true or false, given as such or as their text (any letter case); undefined for anything else. */
export function flagOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/** An id as text: a string, or a safe integer (an id past 2^53 was already rounded by JSON.parse). */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** A person whose entry could not be read at all: skipped, saying why. */
export const unreadablePerson = (at: string, why: string): SourcePerson => ({
  id: at,
  email: undefined,
  name: undefined,
  role: undefined,
  state: 'active',
  phones: undefined,
  unreadable: why,
});

/**
 * A list's entry as a person: `person` reads the user object once it is one and has an id;
 * an entry that is neither is a person skipped, saying which (`at`: its page and place).
 */
export function personFrom(item: unknown, at: string, person: (user: Record<string, unknown>, id: string) => SourcePerson): SourcePerson {
  const user = objectOf(item);
  if (!user) return unreadablePerson(at, 'the entry is not a user object');
  const id = idOf(user['id']);
  if (id === undefined) return unreadablePerson(at, 'the entry has no id');
  return person(user, id);
}
