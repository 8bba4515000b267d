import type { ApiItem, Fact, Verdict } from './model.ts';

/**
 * The written rules: what a change of one fact of a kept item does to people's saved
 * automations. One row per fact the classifier gives a meaning to; a fact without a row is
 * wording (compatible). docs/api-reports.md lists the same rules for people.
 */

/**
 * Kinds of item that a user (or their automation) gives a value to: a field, a parameter, a
 * property, a flag, an environment variable. Everything else is something they read (an
 * output, a tool's result) or name (a trigger, a module, a command). The direction decides
 * which way a change hurts: a required input hurts those who leave it out, a missing output
 * those who map it.
 */
export const INPUT_KINDS: ReadonlySet<string> = new Set([
  'input',
  'parameter',
  'property',
  'auth-field',
  'credential-property',
  'flag',
  'env',
  'request-property',
  'action-input',
]);

export const isInput = (item: Pick<ApiItem, 'kind'>) => INPUT_KINDS.has(item.kind);

/** A default that stands in for a missing value: set, and not an empty text, list or object. */
export function hasDefault(item: ApiItem | undefined): boolean {
  const value = item?.facts['default'];
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return value !== '{}' && value !== '[]';
}

export interface FactChange {
  readonly verdict: Verdict;
  /** What changed, in a few words. */
  readonly change: string;
}

interface Context {
  readonly before: ApiItem;
  readonly after: ApiItem;
  readonly input: boolean;
}

export interface FactRule {
  readonly fact: string;
  judge(before: Fact | undefined, after: Fact | undefined, context: Context): FactChange;
}

export const show = (value: Fact | undefined) => (value === undefined ? '(none)' : JSON.stringify(value));
const plain = (fact: string, before: Fact | undefined, after: Fact | undefined, verdict: Verdict): FactChange => ({
  verdict,
  change: `${fact}: ${show(before)} → ${show(after)}`,
});
const asList = (value: Fact | undefined): readonly string[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [String(value)]);
const listDelta = (before: Fact | undefined, after: Fact | undefined) => {
  const was = asList(before);
  const now = asList(after);
  return { removed: was.filter((entry) => !now.includes(entry)), added: now.filter((entry) => !was.includes(entry)) };
};
const listChange = (fact: string, removed: readonly string[], added: readonly string[]) =>
  [
    removed.length ? `${fact}: removed ${removed.map((v) => JSON.stringify(v)).join(', ')}` : '',
    added.length ? `${fact}: added ${added.map((v) => JSON.stringify(v)).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');

/** Set union of the types a value may have: `string|null` → string, null. */
const typeSet = (value: Fact | undefined) => new Set(String(value ?? '').split('|'));

/** A limit on an input: a tighter one refuses values saved steps send today. */
const limit = (fact: string, tighter: (before: number, after: number) => boolean): FactRule => ({
  fact,
  judge: (before, after, { input }) => {
    // Dropping a limit, or any limit on what users read, refuses nothing they send.
    const tightened = input && typeof after === 'number' && (typeof before !== 'number' || tighter(before, after));
    return plain(fact, before, after, tightened ? 'breaking' : 'compatible');
  },
});

/** Any change to this fact is breaking: saved automations depend on its exact value. */
const exact = (fact: string): FactRule => ({ fact, judge: (before, after) => plain(fact, before, after, 'breaking') });

export const FACT_RULES: readonly FactRule[] = [
  {
    // An input made required fails every saved step that left it out, unless a default fills
    // it (Zapier's promote check, the same on every surface); an input made optional breaks
    // nothing. An output that may now be missing breaks what maps it; one now always there
    // breaks nothing.
    fact: 'required',
    judge: (before, after, { input, after: item }) => {
      const tighter = before !== true && after === true;
      const looser = before === true && after !== true;
      const breaking = input ? tighter && !hasDefault(item) : looser;
      return plain('required', before, after, breaking ? 'breaking' : 'compatible');
    },
  },
  {
    // A changed type breaks whoever maps the value (Zapier's versioning matrix: changed field
    // types). An input that accepts more types than before (string → string|number) is widened.
    fact: 'type',
    judge: (before, after, { input }) => {
      const was = typeSet(before);
      const widened = input && [...was].every((type) => typeSet(after).has(type));
      return plain('type', before, after, widened ? 'compatible' : 'breaking');
    },
  },
  {
    // A static choice removed leaves every saved step that picked it with a value the field no
    // longer offers; a choice added breaks nothing. On an output, the values that may come out:
    // one added may reach a filter or router that does not expect it, so both ways are breaking there.
    fact: 'choices',
    judge: (before, after, { input }) => {
      const { removed, added } = listDelta(before, after);
      const breaking = input ? removed.length > 0 : removed.length > 0 || added.length > 0;
      return { verdict: breaking ? 'breaking' : 'compatible', change: listChange('choices', removed, added) };
    },
  },
  {
    // The value a step without one gets: a required input that loses it fails the saved steps
    // that relied on it; otherwise only new steps see the new default.
    fact: 'default',
    judge: (before, after, { input, before: was, after: now }) => {
      const lost = input && now.facts['required'] === true && hasDefault(was) && !hasDefault(now);
      return plain('default', before, after, lost ? 'breaking' : 'compatible');
    },
  },
  // One value or several: a saved step's value no longer has the shape the field takes.
  exact('list'),
  {
    // Where a dropdown's choices come from (a trigger's key, an RPC, a load-options method):
    // saved values were picked from the old source. Losing the dropdown leaves a free field
    // that still takes them.
    fact: 'dynamic',
    judge: (before, after) => plain('dynamic', before, after, after === undefined || after === null ? 'compatible' : 'breaking'),
  },
  // A trigger switched between hook and polling, an auth of another type, a module of another
  // kind: Zapier refuses these at promote, and every platform re-creates the step.
  exact('kind'),
  // The field a hook's or poll's items are deduplicated by: a new one makes every item new again
  // (a flood of runs) or hides new ones.
  exact('dedupe'),
  // What an exit code stands for: pipelines branch on the number.
  exact('meaning'),
  // A flag that starts or stops taking a value swallows the next argument, or leaves it over.
  exact('takesValue'),
  // A declaration's or schema's text: reviewed as breaking unless a rule can tell it only widened.
  exact('signature'),
  // A validation pattern on an input may refuse what saved steps send; which way it moved cannot be told.
  {
    fact: 'pattern',
    judge: (before, after, { input }) => plain('pattern', before, after, input ? 'breaking' : 'compatible'),
  },
  {
    // Hiding starts retiring: saved steps keep running, new ones cannot pick it. Showing it again is harmless.
    fact: 'hidden',
    judge: (before, after) => plain('hidden', before, after, 'compatible'),
  },
  {
    // An n8n node's typeVersions: saved workflows keep theirs, so one removed breaks them; one added is the way to change.
    fact: 'versions',
    judge: (before, after) => {
      const { removed, added } = listDelta(before, after);
      return { verdict: removed.length ? 'breaking' : 'compatible', change: listChange('versions', removed, added) };
    },
  },
  limit('maxLength', (before, after) => after < before),
  limit('maxItems', (before, after) => after < before),
  limit('maximum', (before, after) => after < before),
  limit('minLength', (before, after) => after > before),
  limit('minItems', (before, after) => after > before),
  limit('minimum', (before, after) => after > before),
];

const WORDING: FactRule = { fact: '(wording)', judge: () => ({ verdict: 'compatible', change: '' }) };

export const ruleFor = (fact: string): FactRule => FACT_RULES.find((rule) => rule.fact === fact) ?? WORDING;

/** A fact without a rule: a label, a help text, a description. The wording changes; nothing that runs does. */
export const wordingChange = (fact: string, before: Fact | undefined, after: Fact | undefined): FactChange => plain(fact, before, after, 'compatible');
