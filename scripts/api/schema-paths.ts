/**
 * A JSON Schema as the list of what a client reads or sends: one entry per property path
 * (`team.name`, `previous[].email`; `[]` is each element of a list), with its type, whether it
 * is required, its enum values and its limits. `$ref`s are followed, so a rename inside a
 * shared schema shows at every place that uses it. The OpenAPI report is made of these.
 */

export type JsonSchema = { readonly [key: string]: unknown };

export interface SchemaPath {
  /** '' for the schema itself. */
  readonly path: string;
  /** The types it may have, sorted and joined with `|` (`string|null`), as the classifier reads them. */
  readonly type: string;
  readonly required: boolean;
  readonly choices?: readonly string[];
  readonly default?: string;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

const MAX_DEPTH = 12;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/components/schemas/X` in `document`. */
export function refResolver(document: JsonSchema): (ref: string) => JsonSchema {
  return (ref) => {
    if (!ref.startsWith('#/')) throw new Error(`Only local $refs are followed, not ${ref}`);
    let at: unknown = document;
    for (const part of ref.slice(2).split('/')) at = isSchema(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    if (!isSchema(at)) throw new Error(`$ref ${ref} names nothing in the document`);
    return at;
  };
}

export function schemaPaths(schema: JsonSchema, resolve: (ref: string) => JsonSchema, required = true): SchemaPath[] {
  const entries: SchemaPath[] = [];
  walk(schema, '', required, resolve, entries, []);
  return entries;
}

function deref(schema: JsonSchema, resolve: (ref: string) => JsonSchema, seen: readonly string[]): { schema: JsonSchema; seen: readonly string[] } {
  let current = schema;
  let trail = seen;
  while (typeof current['$ref'] === 'string') {
    const ref = current['$ref'];
    if (trail.includes(ref)) return { schema: { description: `(recursive ${ref})` }, seen: trail };
    trail = [...trail, ref];
    current = resolve(ref);
  }
  return { schema: current, seen: trail };
}

/** Each alternative of a schema (anyOf, oneOf), or the schema itself. */
function branches(schema: JsonSchema, resolve: (ref: string) => JsonSchema, seen: readonly string[]): { schema: JsonSchema; seen: readonly string[] }[] {
  const alternatives = [schema['anyOf'], schema['oneOf']].find(Array.isArray) as unknown[] | undefined;
  if (!alternatives) return [{ schema, seen }];
  return alternatives.filter(isSchema).flatMap((branch) => {
    const resolved = deref(branch, resolve, seen);
    return branches(resolved.schema, resolve, resolved.seen);
  });
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  if (Array.isArray(schema['enum'])) return [...new Set((schema['enum'] as unknown[]).map((value) => (value === null ? 'null' : typeof value)))];
  if ('const' in schema) return [schema['const'] === null ? 'null' : typeof schema['const']];
  const not = schema['not'];
  if (isSchema(not) && typeof not['type'] === 'string') return [`not-${not['type']}`];
  return ['any'];
}

const numberFact = (schema: JsonSchema, name: string) => (typeof schema[name] === 'number' ? (schema[name] as number) : undefined);
const textFact = (schema: JsonSchema, name: string) => (typeof schema[name] === 'string' ? (schema[name] as string) : undefined);

function walk(given: JsonSchema, path: string, required: boolean, resolve: (ref: string) => JsonSchema, entries: SchemaPath[], seen: readonly string[]): void {
  if (path.split(/\.|\[\]/).length > MAX_DEPTH) return;
  const resolved = deref(given, resolve, seen);
  const alternatives = branches(resolved.schema, resolve, resolved.seen);
  const types = [...new Set(alternatives.flatMap(({ schema }) => typesOf(schema)))].sort();
  const enums = alternatives.flatMap(({ schema }) => (Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : []));
  const one = alternatives.length === 1 ? alternatives[0]!.schema : undefined;
  const fallback = resolved.schema['default'] ?? one?.['default'];
  entries.push({
    path,
    type: types.join('|'),
    required,
    ...(enums.length ? { choices: [...new Set(enums.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))))].sort() } : {}),
    ...(fallback === undefined ? {} : { default: typeof fallback === 'string' ? fallback : JSON.stringify(fallback) }),
    ...Object.fromEntries((['format', 'pattern'] as const).flatMap((name) => (one && textFact(one, name) !== undefined ? [[name, textFact(one, name)]] : []))),
    ...Object.fromEntries(
      (['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const).flatMap((name) =>
        one && numberFact(one, name) !== undefined ? [[name, numberFact(one, name)]] : [],
      ),
    ),
  });

  // Properties of every alternative that is an object; required only where every such alternative requires it.
  const objects = alternatives.filter(({ schema }) => isSchema(schema['properties']));
  const keys = [...new Set(objects.flatMap(({ schema }) => Object.keys(schema['properties'] as JsonSchema)))].sort();
  for (const key of keys) {
    const holders = objects.filter(({ schema }) => key in (schema['properties'] as JsonSchema));
    const requiredHere = objects.every(({ schema }) => Array.isArray(schema['required']) && (schema['required'] as unknown[]).includes(key));
    const child = (holders[0]!.schema['properties'] as JsonSchema)[key];
    if (isSchema(child)) walk(child, path ? `${path}.${key}` : key, requiredHere, resolve, entries, holders[0]!.seen);
  }
  const list = alternatives.find(({ schema }) => isSchema(schema['items']));
  if (list) walk(list.schema['items'] as JsonSchema, `${path}[]`, true, resolve, entries, list.seen);
}
