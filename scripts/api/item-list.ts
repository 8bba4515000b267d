import type { ApiItem, Fact, SurfaceId, SurfaceReport } from './model.ts';

/**
 * Items as the extractors make them: facts left undefined are left out (a fact that is not
 * there and one that is `undefined` must read the same in a report), lists are copied, and
 * the report is sorted by id so it diffs line by line.
 */
export function item(id: string, kind: string, facts: Readonly<Record<string, Fact | undefined>>): ApiItem {
  const kept: Record<string, Fact> = {};
  for (const [name, value] of Object.entries(facts)) if (value !== undefined) kept[name] = value;
  return { id, kind, facts: kept };
}

/** Sorted by id (code-point order, so the same on every machine); a duplicate id is a bug in the extractor. */
export function report(surface: SurfaceId, items: readonly ApiItem[]): SurfaceReport {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let at = 1; at < sorted.length; at++) {
    if (sorted[at]!.id === sorted[at - 1]!.id) throw new Error(`${surface}: two items have the id "${sorted[at]!.id}"`);
  }
  return { surface, items: sorted };
}

/** A sorted copy of a list fact, or nothing when empty. */
export const sortedList = (values: readonly unknown[] | undefined): readonly string[] | undefined =>
  values?.length ? [...new Set(values.map(String))].sort() : undefined;

/** Text on one line, runs of white space as one space: signatures and descriptions diff as one line. */
export const oneLine = (text: string | undefined): string | undefined => text?.replace(/\s+/g, ' ').trim() || undefined;

/** How long an extraction took, for the timing the check may print; never part of a report. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}
