import type { ApiItem, Fact, SurfaceId, Verdict } from './model.ts';

/**
 * The written rules: what a change of one fact of a kept item does to people's saved
 * automations, on the platform the item belongs to. One row per fact the classifier gives a
 * meaning to; a fact without a row is wording (compatible). docs/api-reports.md lists the same
 * rules for people, each with its platform's meaning and the page that says so.
 */

/**
 * Kinds of item that a user (or their automation) gives a value to: a field, a parameter, a
 * property, a flag, an environment variable, a header. Everything else is something they read
 * (an output, a tool's result) or name (a trigger, a module, a command). The direction decides
 * which way a change hurts: a required input hurts those who leave it out, a missing output
 * those who map it; a wider input and a narrower output break nothing.
 */
export const INPUT_KINDS: ReadonlySet<string> = new Set([
  'input',
  'parameter',
  'property',
  'auth-field',
  'credential-property',
  'flag',
  'env',
  'header',
  'request-property',
  'action-input',
]);

export const isInput = (item: Pick<ApiItem, 'kind'>) => INPUT_KINDS.has(item.kind);

/**
 * Kinds of item only the app itself names, never a saved automation: a Make RPC feeds a
 * dropdown, and a scenario stores the value picked, not the RPC that listed it. Adding, removing
 * or renaming one is compatible (Make's list of breaking changes names an RPC's parameters made
 * required, which the parameters' own rule holds, not the RPC's name).
 */
export const INTERNAL_KINDS: ReadonlyMap<string, string> = new Map([
  ['rpc', "a scenario never names an RPC: only the app's own fields call it, and a scenario stores the value picked"],
]);

/**
 * Where a saved automation holds the value of every input it was set up with, defaults
 * included, so a default changed later reaches only new steps: Zapier saves the value a field
 * had when the Zap was set up, Make saves each module's parameters with the scenario. Everywhere
 * else the saved automation leaves out what it did not set and gets the default at run time:
 * n8n saves only the parameters that differ from their default; a workflow's `with:` omits an
 * Action input and GitHub passes action.yml's default; a script omits a flag and the CLI uses
 * its default; an agent omits an MCP tool argument and the server applies the schema's default;
 * code omits an option or a request property and gets the default.
 */
export const DEFAULT_STORED: ReadonlySet<SurfaceId> = new Set(['zapier', 'make']);

/** A default that stands in for a missing value: set, and not an empty text, list or object. */
export function hasDefault(item: ApiItem | undefined): boolean {
  const value = item?.facts['default'] ?? item?.facts['prefill'];
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return value !== '{}' && value !== '[]';
}

export interface FactChange {
  readonly verdict: Verdict;
  /** What changed, in a few words, and why it has that verdict where that is not plain. */
  readonly change: string;
  /**
   * Set where the platform itself says such a change "depends" (Zapier's versioning matrix on a
   * field's type): what to check before releasing it. The verdict stays `compatible`, so tools
   * that read the line's verdict do not block on it; the line says `depends:` first.
   */
  readonly depends?: string;
}

interface Context {
  readonly surface: SurfaceId;
  readonly before: ApiItem;
  readonly after: ApiItem;
  readonly input: boolean;
}

export interface FactRule {
  readonly fact: string;
  judge(before: Fact | undefined, after: Fact | undefined, context: Context): FactChange;
}

export const show = (value: Fact | undefined) => (value === undefined ? '(none)' : JSON.stringify(value));
const plain = (fact: string, before: Fact | undefined, after: Fact | undefined, verdict: Verdict, why?: string): FactChange => ({
  verdict,
  change: `${fact}: ${show(before)} → ${show(after)}${why ? ` (${why})` : ''}`,
});
const asList = (value: Fact | undefined): readonly string[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [String(value)]);
const listDelta = (before: Fact | undefined, after: Fact | undefined) => {
  const was = asList(before);
  const now = asList(after);
  return { removed: was.filter((entry) => !now.includes(entry)), added: now.filter((entry) => !was.includes(entry)) };
};
const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');
const listChange = (fact: string, removed: readonly string[], added: readonly string[]) =>
  [removed.length ? `${fact}: removed ${quoted(removed)}` : '', added.length ? `${fact}: added ${quoted(added)}` : ''].filter(Boolean).join('; ');

/** Set union of the types a value may have: `string|null` → string, null. */
const typeSet = (value: Fact | undefined) => new Set(String(value ?? '').split('|'));

/**
 * Make coerces these to text (Make's type coercions): a parameter made `text` still takes what a
 * scenario mapped into it.
 */
const MAKE_TEXT_TAKES: ReadonlySet<string> = new Set(['number', 'uinteger', 'integer', 'boolean', 'date', 'url', 'email', 'select']);

/** Whether every value of type `narrow` is also a value of type `wide`: an integer is a number; `array<integer>` is an `array<number>`. */
function covers(wide: string, narrow: string, surface?: SurfaceId): boolean {
  if (wide === narrow || wide === 'any') return true;
  if (wide === 'number' && narrow === 'integer') return true;
  if (surface === 'make' && wide === 'text' && MAKE_TEXT_TAKES.has(narrow)) return true;
  const inner = (type: string) => /^array<(.*)>$/.exec(type)?.[1];
  const [w, n] = [inner(wide), inner(narrow)];
  return w !== undefined && n !== undefined && [...typeSet(n)].every((one) => [...typeSet(w)].some((other) => covers(other, one)));
}
/** Whether every type in `narrow` is covered by one in `wide`. */
const within = (narrow: Fact | undefined, wide: Fact | undefined, surface?: SurfaceId) =>
  [...typeSet(narrow)].every((one) => [...typeSet(wide)].some((other) => covers(other, one, surface)));

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
const exact = (fact: string, why?: string): FactRule => ({ fact, judge: (before, after) => plain(fact, before, after, 'breaking', why) });

/**
 * A set of values, where no list means any value. On an input (what it accepts): a list where
 * there was none, or a value removed, refuses what saved steps send (narrowed: breaking); a value
 * added, or the list dropped, widens it (compatible). On an output (what may come out): a value
 * added, or the list dropped, may reach a filter, router or switch that does not expect it
 * (widened: breaking); a value removed, or a list where there was none, narrows it (compatible).
 */
function valueSet(fact: string, before: Fact | undefined, after: Fact | undefined, input: boolean): FactChange {
  const { removed, added } = listDelta(before, after);
  if (before === undefined || after === undefined) {
    const narrowed = after !== undefined;
    const change = narrowed ? `${fact}: any value → ${quoted(asList(after))}` : `${fact}: ${quoted(asList(before))} → any value`;
    const breaking = input ? narrowed : !narrowed;
    return { verdict: breaking ? 'breaking' : 'compatible', change: `${change} (${narrowed ? 'narrowed' : 'widened'})` };
  }
  const breaking = input ? removed.length > 0 : added.length > 0;
  return { verdict: breaking ? 'breaking' : 'compatible', change: listChange(fact, removed, added) };
}

/** Zapier's versioning matrix marks an input field's type change "Depends": what to check. */
const zapierTypeCheck = (before: Fact | undefined, after: Fact | undefined) =>
  `check that every value saved Zaps send in this field, typed or mapped, is still taken as ${show(after)} (it was ${show(before)}); if some are not, it needs a new major version`;

/** A Zapier dynamic dropdown, `trigger.valueKey.labelKey`: the key whose values a saved Zap stores. */
const storedKey = (source: Fact | undefined) => (typeof source === 'string' ? source.split('.')[1] : undefined);

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
    // On an input, a type that takes every value the old one took (string → string|number,
    // integer → number) is widened: compatible; any other change refuses what saved steps send.
    // Zapier's versioning matrix says an input field's type change "depends" on the
    // implementation (Zapier does not validate a field's type): said as such, with what to check.
    // On an output, a type that may hold fewer kinds of value (null|string → string) is narrowed:
    // compatible; any other change breaks whoever maps the value.
    fact: 'type',
    judge: (before, after, { input, surface }) => {
      if (!input) return plain('type', before, after, within(after, before) ? 'compatible' : 'breaking', within(after, before) ? 'narrowed' : undefined);
      if (within(before, after, surface)) return plain('type', before, after, 'compatible', 'widened');
      if (surface === 'zapier') return { ...plain('type', before, after, 'compatible'), depends: zapierTypeCheck(before, after) };
      return plain('type', before, after, 'breaking');
    },
  },
  {
    // The static choices. Where the item takes values outside them too (`customValues`: Make's
    // `mode: edit`), they are suggestions, and changing them refuses nothing.
    fact: 'choices',
    judge: (before, after, { input, before: was, after: now }) => {
      if (input && was.facts['customValues'] === true && now.facts['customValues'] === true) {
        const { removed, added } = listDelta(before, after);
        return {
          verdict: 'compatible',
          change: `${listChange('choices', removed, added) || `choices: ${show(before)} → ${show(after)}`} (suggestions: any value is still taken)`,
        };
      }
      return valueSet('choices', before, after, input);
    },
  },
  {
    // The values the runtime accepts for an input (its endpoint's schema, which the shared
    // client checks before sending): the same as choices, whatever the platform's field shows.
    fact: 'accepts',
    judge: (before, after, { input }) => valueSet('accepts', before, after, input),
  },
  {
    // Values outside the choices taken (Make's `mode: edit`): no longer taken refuses the values
    // saved steps typed or mapped; taken now refuses nothing.
    fact: 'customValues',
    judge: (before, after, { input }) =>
      plain('customValues', before, after, input && before === true && after !== true ? 'breaking' : 'compatible', before === true ? 'narrowed' : 'widened'),
  },
  {
    // The value a saved automation that left the input out gets. Where the platform stores the
    // value a step was set up with (DEFAULT_STORED), a new default reaches only new steps, and
    // only a required input losing it breaks saved ones (Zapier's promote check); everywhere else
    // the saved automation gets the new default at run time, and every change is breaking.
    fact: 'default',
    judge: (before, after, { surface, input, before: was, after: now }) => {
      if (!input) return plain('default', before, after, 'compatible');
      if (!DEFAULT_STORED.has(surface)) return plain('default', before, after, 'breaking', 'saved automations that leave it out get the new one');
      const lost = now.facts['required'] === true && hasDefault(was) && !hasDefault(now);
      return plain('default', before, after, lost ? 'breaking' : 'compatible', lost ? undefined : 'saved steps keep the value they were set up with');
    },
  },
  {
    // The value an editor puts in a field when a user adds it (an option of an n8n collection,
    // which n8n saves whole once set): saved steps hold their own; only new ones see it.
    fact: 'prefill',
    judge: (before, after) => plain('prefill', before, after, 'compatible', 'saved steps keep the value they were set up with'),
  },
  // One value or several: a saved step's value no longer has the shape the field takes.
  exact('list'),
  {
    // Where a dropdown's choices come from (a trigger's key, an RPC, a load-options method):
    // saved steps store the value picked, not the source, so a renamed or moved source breaks
    // nothing. A Zapier source also names the key whose values are stored (`team.name.name`):
    // another key means saved Zaps hold values of the wrong kind.
    fact: 'dynamic',
    judge: (before, after, { surface }) => {
      if (surface === 'zapier' && before !== undefined && after !== undefined && storedKey(before) !== storedKey(after)) {
        return plain('dynamic', before, after, 'breaking', `saved Zaps hold ${storedKey(before)} values, it now stores ${storedKey(after)}`);
      }
      return plain('dynamic', before, after, 'compatible', 'saved steps store the value picked, not where the list came from');
    },
  },
  // A trigger switched between hook and polling, an auth of another type, a module of another
  // kind: Zapier refuses these at promote, and every platform re-creates the step.
  exact('kind'),
  // The field a hook's or poll's items are deduplicated by: a new one makes every item new again
  // (a flood of runs) or hides new ones.
  exact('dedupe'),
  // The exit code a kind of failure gets (`exitCode`, and `exitCodeIf…` for the cases that get
  // another): a pipeline that retries on 75 or stops on 3 does something else.
  exact('exitCode', 'pipelines branch on the number'),
  // An order that decides something (which exit code wins when several failures happen).
  exact('order'),
  // A flag that starts or stops taking a value swallows the next argument, or leaves it over.
  exact('takesValue'),
  // A path a client is configured with (the MCP server's HTTP endpoint).
  exact('path'),
  // Where a client sends the key (OpenAPI's security scheme: `header`, `query`, `cookie`).
  exact('in'),
  {
    // The name the key is sent under (OpenAPI's security scheme): a generated client sends the
    // one the document names. A header's name is the same whatever its letter case (RFC 9110).
    fact: 'name',
    judge: (before, after, { after: item }) => {
      const sameHeader = item.facts['in'] === 'header' && String(before).toLowerCase() === String(after).toLowerCase();
      return plain('name', before, after, sameHeader ? 'compatible' : 'breaking', sameHeader ? 'header names ignore letter case' : undefined);
    },
  },
  {
    // An MCP tool offered only with --enable-write-tools: a host that runs the server without
    // the flag, as the default read-only set-up does, no longer sees a tool it was given.
    fact: 'writeTool',
    judge: (before, after) =>
      plain(
        'writeTool',
        before,
        after,
        before !== true && after === true ? 'breaking' : 'compatible',
        after === true ? 'offered only with --enable-write-tools' : 'offered without the flag too',
      ),
  },
  {
    // Where a Make parameter sits: a mappable one takes what a scenario mapped from earlier
    // modules; made static, it takes only a value typed in (Make: "setting mappable to false").
    fact: 'placement',
    judge: (before, after, { input }) => plain('placement', before, after, input && before === 'mappable' ? 'breaking' : 'compatible'),
  },
  // A declaration's or schema's text: reviewed as breaking unless a rule can tell it only widened.
  exact('signature'),
  {
    // A command's positional arguments, in order: scripts pass them by place. One that moved
    // (a swap, one inserted before it) now receives what scripts pass for another; one added at
    // the end, or renamed in place, leaves every place as it was.
    fact: 'positionals',
    judge: (before, after) => {
      const was = asList(before);
      const now = asList(after);
      const moved = was.filter((name, at) => now.includes(name) && now.indexOf(name) !== at);
      return plain(
        'positionals',
        before,
        after,
        moved.length ? 'breaking' : 'compatible',
        moved.length ? `${moved.map((name) => `<${name}>`).join(', ')} moved: scripts pass arguments by place` : undefined,
      );
    },
  },
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

/** Facts named by a prefix: `exitCodeIfNotRetryable` follows `exitCode`'s rule. */
const FAMILIES = ['exitCode'] as const;

const WORDING: FactRule = { fact: '(wording)', judge: () => ({ verdict: 'compatible', change: '' }) };

export function ruleFor(fact: string): FactRule {
  const rule = FACT_RULES.find((entry) => entry.fact === fact);
  if (rule) return rule;
  const family = FAMILIES.find((prefix) => fact.startsWith(prefix));
  const head = family && FACT_RULES.find((entry) => entry.fact === family);
  return head
    ? { fact, judge: (before, after, context) => ({ ...head.judge(before, after, context), change: plain(fact, before, after, 'breaking').change }) }
    : WORDING;
}

/** A fact without a rule: a label, a help text, a description. The wording changes; nothing that runs does. */
export const wordingChange = (fact: string, before: Fact | undefined, after: Fact | undefined): FactChange => plain(fact, before, after, 'compatible');
