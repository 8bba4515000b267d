import type { Endpoint } from '../../../shared/catalog/endpoint.ts';
import type { Operation } from '../../../shared/operations/types.ts';
import { zapierApp } from '../../../zapier-app/index.ts';
import { zapierName } from '../../../zapier-app/operation-names.ts';
import { type Accepted, acceptedValues } from '../accepted-values.ts';
import type { ApiItem, Fact, SurfaceExtractor } from '../model.ts';
import { compact, isHidden, sortedValues } from './facts.ts';

/**
 * The Zapier app's public interface, read from the app definition the integration exports (the
 * object zapier-platform-core validates and runs), built in memory from the descriptions: every
 * trigger, create, search and search-or-create key; a trigger's kind; the auth's type and
 * fields; each input field as a Zap stores it; each output field as later steps map it.
 */

interface Field {
  key: string;
  type?: string;
  required?: boolean;
  default?: string;
  list?: boolean;
  choices?: unknown;
  dynamic?: string;
  label?: string;
  primary?: boolean;
}

interface Definition {
  key: string;
  noun?: string;
  display: { label: string; hidden?: boolean };
  operation: { type?: string; inputFields?: unknown[]; outputFields?: unknown[] };
}

type App = ReturnType<typeof zapierApp>;

/** Zapier takes choices as a list of values, a list of {value, label}, or an object value → label. */
function choiceValues(choices: unknown): string[] | undefined {
  if (choices === undefined) return undefined;
  if (Array.isArray(choices))
    return sortedValues(
      choices.map((choice) => (typeof choice === 'object' && choice !== null ? String((choice as { value: unknown }).value) : String(choice))),
    );
  if (typeof choices === 'object' && choices !== null) return sortedValues(Object.keys(choices));
  return undefined;
}

// Input fields given as functions (dynamic fields) are computed per Zap: the report names that they exist.
const plainFields = (fields: unknown[] | undefined): Field[] => (fields ?? []).filter((field): field is Field => typeof field === 'object' && field !== null);

function inputItems(parent: string, fields: unknown[] | undefined, accepted: ReadonlyMap<string, Accepted>): ApiItem[] {
  const items: ApiItem[] = [];
  // A `copy` field is text shown above the inputs: nothing a Zap stores.
  for (const field of plainFields(fields).filter((f) => f.type !== 'copy')) {
    items.push({
      id: `${parent}/input/${field.key}`,
      kind: 'input',
      facts: compact({
        type: field.type ?? 'string',
        required: field.required ?? false,
        default: field.default,
        list: field.list ?? false,
        choices: choiceValues(field.choices),
        dynamic: field.dynamic,
        label: field.label,
        // What the shared client lets through, whatever the field shows.
        ...accepted.get(field.key),
      }),
    });
  }
  const computed = (fields ?? []).filter((field) => typeof field === 'function').length;
  if (computed) items.push({ id: `${parent}/input/(computed)`, kind: 'input-source', facts: { count: computed } });
  return items;
}

const outputItems = (parent: string, fields: unknown[] | undefined): ApiItem[] =>
  plainFields(fields).map((field) => ({
    id: `${parent}/output/${field.key}`,
    kind: 'output',
    facts: compact({ type: field.type ?? 'string', label: field.label }),
  }));

/** Zapier deduplicates a trigger's items by its primary output fields, else by `id`. */
function dedupeOf(definition: Definition): string {
  const primary = plainFields(definition.operation.outputFields).filter((field) => field.primary);
  return primary.length ? primary.map((field) => field.key).join('+') : 'id';
}

function operationItems(
  kind: 'trigger' | 'create' | 'search',
  definition: Definition,
  retiring: ReadonlySet<string>,
  accepted: ReadonlyMap<string, Accepted>,
): ApiItem[] {
  const id = `${kind}/${definition.key}`;
  const hidden = definition.display.hidden || retiring.has(definition.key) || undefined;
  const facts: Record<string, Fact | undefined> = { label: definition.display.label, noun: definition.noun, hidden };
  if (kind === 'trigger') {
    // Zapier's default trigger type is polling.
    facts['kind'] = definition.operation.type ?? 'polling';
    facts['dedupe'] = dedupeOf(definition);
  }
  return [
    { id, kind, facts: compact(facts) },
    ...inputItems(id, definition.operation.inputFields, accepted),
    ...outputItems(id, definition.operation.outputFields),
  ];
}

/**
 * The app's items. `operations` are the descriptions it was built from: one marked hidden (being
 * retired) is reported hidden even where the app does not hide it yet; each one's endpoint (in
 * `endpoints`) says what its inputs accept.
 */
export function zapierItems(app: App, operations: readonly Operation[] = [], endpoints: Readonly<Record<string, Endpoint>> = {}): ApiItem[] {
  const retiring = new Set(operations.filter(isHidden).map((operation) => zapierName(operation).key));
  const acceptedBy = new Map(
    operations.map((operation) => [zapierName(operation).key, acceptedValues('endpoint' in operation ? endpoints[operation.endpoint] : undefined)] as const),
  );
  const none: ReadonlyMap<string, Accepted> = new Map();
  const auth = app.authentication as { type: string; fields?: unknown[] } | undefined;
  const items: ApiItem[] = [];
  if (auth) {
    items.push({ id: 'auth', kind: 'auth', facts: { kind: auth.type } });
    for (const field of plainFields(auth.fields)) {
      items.push({
        id: `auth/field/${field.key}`,
        kind: 'auth-field',
        facts: compact({ type: field.type ?? 'string', required: field.required ?? false, label: field.label }),
      });
    }
  }
  const groups = [
    ['trigger', app.triggers],
    ['create', app.creates],
    ['search', app.searches],
  ] as const;
  for (const [kind, group] of groups)
    for (const definition of Object.values(group ?? {})) {
      const { key } = definition as unknown as Definition;
      items.push(...operationItems(kind, definition as unknown as Definition, retiring, acceptedBy.get(key) ?? none));
    }
  for (const pair of Object.values(app.searchOrCreates ?? {})) {
    items.push({
      id: `searchOrCreate/${pair.key}`,
      kind: 'searchOrCreate',
      facts: compact({ search: pair.search, create: pair.create, label: pair.display.label }),
    });
  }
  return items;
}

export const extractor: SurfaceExtractor = {
  surface: 'zapier',
  async extract(options = {}) {
    const operations = options.source?.operations ?? (await import('../../../shared/operations/index.ts')).operations;
    const endpoints = options.source?.endpoints ?? (await import('../../../shared/catalog/endpoints.ts')).endpoints;
    return { surface: 'zapier', items: zapierItems(zapierApp(operations), operations, endpoints) };
  },
};
