import { adviceFor } from './advice.ts';
import type { ApiItem, Difference, SurfaceId, SurfaceReport, Verdict } from './model.ts';
import { type FactChange, hasDefault, INTERNAL_KINDS, isInput, ruleFor, wordingChange } from './rules.ts';

/**
 * Compares two reports of one surface, item by item and fact by fact, and calls each difference
 * breaking or compatible by the written rules (rules.ts), with what to do about it (advice.ts).
 */

/** The nearest item whose id is a path prefix of this one (`create/x` for `create/x/input/y`). */
function parentIn(ids: ReadonlySet<string>, id: string): string | undefined {
  for (let at = id.lastIndexOf('/'); at > 0; at = id.lastIndexOf('/', at - 1)) {
    const prefix = id.slice(0, at);
    if (ids.has(prefix)) return prefix;
  }
  return undefined;
}

const verdictOf = (changes: readonly { verdict: Verdict }[]): Verdict => (changes.some((c) => c.verdict === 'breaking') ? 'breaking' : 'compatible');

/** One difference per item: the worst of its fact changes decides, each change is named. */
function changedItem(surface: SurfaceId, before: ApiItem, after: ApiItem): FactChange[] {
  const input = isInput(after);
  const names = [...new Set([...Object.keys(before.facts), ...Object.keys(after.facts)])].sort();
  const changes = names.flatMap((fact) => {
    const was = before.facts[fact];
    const now = after.facts[fact];
    if (JSON.stringify(was) === JSON.stringify(now)) return [];
    const rule = ruleFor(fact);
    return [rule.fact === fact ? rule.judge(was, now, { surface, before, after, input }) : wordingChange(fact, was, now)];
  });
  if (before.kind !== after.kind) changes.unshift({ verdict: 'breaking', change: `kind of item: ${before.kind} → ${after.kind}` });
  return changes;
}

/** A sibling of the same kind added where one was removed: probably a rename, said as such. */
function renamedTo(removed: ApiItem, added: readonly ApiItem[]): string | undefined {
  const parent = removed.id.slice(0, removed.id.lastIndexOf('/'));
  const candidates = added.filter((item) => item.kind === removed.kind && item.id.slice(0, item.id.lastIndexOf('/')) === parent);
  return candidates.length === 1 ? candidates[0]!.id.slice(parent.length + 1) : undefined;
}

export function compareReports(before: SurfaceReport, after: SurfaceReport): Difference[] {
  const surface = after.surface;
  const was = new Map(before.items.map((item) => [item.id, item]));
  const now = new Map(after.items.map((item) => [item.id, item]));
  const removed = before.items.filter((item) => !now.has(item.id));
  const added = after.items.filter((item) => !was.has(item.id));
  const removedIds = new Set(removed.map((item) => item.id));
  const addedIds = new Set(added.map((item) => item.id));
  const differences: Difference[] = [];
  const push = (item: ApiItem, change: string, given: Verdict, wasHidden = false, depends?: string) => {
    // What only the app itself names changes nothing a saved automation holds.
    const internal = INTERNAL_KINDS.get(item.kind);
    const verdict = internal ? 'compatible' : given;
    const said = internal && given === 'breaking' ? `${change} (${internal})` : change;
    const dependsOn = verdict === 'compatible' ? depends : undefined;
    differences.push({
      surface,
      id: item.id,
      kind: item.kind,
      change: said,
      verdict,
      advice: adviceFor({ surface, id: item.id, kind: item.kind, verdict, wasHidden, depends: dependsOn !== undefined }),
      ...(wasHidden ? { retiring: true } : {}),
      ...(dependsOn ? { depends: dependsOn } : {}),
    });
  };

  // An item removed with its parent is said once, by the parent ("removed, with 12 items under it").
  for (const item of removed) {
    if (parentIn(removedIds, item.id)) continue;
    const under = removed.filter((other) => other.id.startsWith(`${item.id}/`)).length;
    const rename = renamedTo(item, added);
    // What it stood for, where an id alone says nothing (an exit code's number): the reader must know who is hit.
    const meaning = typeof item.facts['meaning'] === 'string' ? ` (it meant ${JSON.stringify(item.facts['meaning'])})` : '';
    const change = `removed${meaning}${under ? `, with ${under} item${under === 1 ? '' : 's'} under it` : ''}${rename ? ` (renamed to ${rename}?)` : ''}`;
    // Removing is always breaking for the saved automations that use it, hidden or not.
    push(item, change, 'breaking', item.facts['hidden'] === true);
  }
  for (const item of added) {
    // Whatever comes with a new parent (a new operation's fields, a new typeVersion's
    // parameters) is new to everyone: nothing saved uses it yet.
    if (parentIn(addedIds, item.id)) continue;
    const under = added.filter((other) => other.id.startsWith(`${item.id}/`)).length;
    // A new required input without a default fails every saved step, none of which has it.
    const newRequired = isInput(item) && item.facts['required'] === true && !hasDefault(item);
    const change = `added${newRequired ? ', required, without a default' : ''}${under ? `, with ${under} item${under === 1 ? '' : 's'} under it` : ''}`;
    push(item, change, newRequired ? 'breaking' : 'compatible');
  }
  for (const item of after.items) {
    const old = was.get(item.id);
    if (!old) continue;
    const changes = changedItem(surface, old, item);
    if (!changes.length) continue;
    const depends = changes.flatMap((c) => (c.depends ? [c.depends] : [])).join('; ');
    push(item, changes.map((c) => c.change).join('; '), verdictOf(changes), false, depends || undefined);
  }
  return differences.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * One line per difference, as the check prints it: `<surface> <id>: breaking|compatible: <why>`.
 * Where the platform says it depends, the verdict word stays `compatible` (tools that read it do
 * not block) and the why starts with `depends:` and what to check.
 */
export const differenceLine = (difference: Difference) =>
  `${difference.surface} ${difference.id}: ${difference.verdict}: ${difference.depends ? `depends: ${difference.depends}; ` : ''}${difference.change}. ${difference.advice}`;
