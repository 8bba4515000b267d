import type { Operation } from '../../../shared/operations/types.ts';
import type { Fact } from '../model.ts';

/** Facts without the ones that are not set, so an absent fact and an unset one read the same. */
export function compact(facts: Readonly<Record<string, Fact | undefined>>): Record<string, Fact> {
  return Object.fromEntries(Object.entries(facts).filter((entry): entry is [string, Fact] => entry[1] !== undefined));
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A list of values in code-point order, duplicates once: the report's lists do not move with a locale. */
export const sortedValues = (values: readonly unknown[]): string[] => [...new Set(values.map(String))].sort(byCodePoint);

/** A non-text default as JSON text, so a fact stays text, a number, a boolean or null. */
export const factValue = (value: unknown): Fact | undefined =>
  value === undefined ? undefined : value === null || ['string', 'number', 'boolean'].includes(typeof value) ? (value as Fact) : JSON.stringify(value);

/**
 * Whether an operation is being retired: hidden from new steps, still run for saved ones. Read
 * from the description's `retiring` (shared/operations/retiring.ts); a surface with its own notion (Zapier's
 * `display.hidden`) reads its own.
 */
export const isHidden = (operation: Operation | undefined): boolean => operation?.retiring !== undefined;
