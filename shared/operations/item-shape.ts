/**
 * How an output item is made from what the service sent, declared once and run on both
 * platforms: the Zapier app evaluates it here, the Make generator writes it as IML. Paths
 * name Make's own IML variables (`body` is the answer or hook payload, `item` the element
 * being iterated), so the translation is word for word.
 */
export type Expression =
  /** The value at a dotted path, e.g. `body.team.name`; null when absent. */
  | { readonly path: string }
  /** `field` of every element of the list at `list`, joined: "Ada Lovelace, Grace Hopper". */
  | { readonly join: string; readonly field: string; readonly separator: string }
  /** How many elements the list at `count` has (0 when it is not a list). */
  | { readonly count: string };

/**
 * A field the item adds, with what the platforms show for it: its expression, label and
 * type are stated here once, and the operation's output fields and sample are made from it.
 * `type` defaults to a number for a count and to text otherwise.
 */
export type DerivedField = Expression & { readonly label: string; readonly type?: 'string' | 'number' | 'datetime' };

export interface ItemShape {
  /** Every field of the value at this path is kept, so nothing unknown is dropped. */
  readonly spread?: string;
  readonly fields: Readonly<Record<string, DerivedField>>;
}

export type Scope = Readonly<Record<string, unknown>>;

function at(scope: Scope, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}

export function evaluate(expression: Expression, scope: Scope): unknown {
  if ('path' in expression) return at(scope, expression.path);
  if ('count' in expression) {
    const list = at(scope, expression.count);
    return Array.isArray(list) ? list.length : 0;
  }
  const list = at(scope, expression.join);
  if (!Array.isArray(list)) return '';
  return list
    .map((element) => at({ element }, `element.${expression.field}`))
    .filter((value) => value !== null && value !== '')
    .join(expression.separator);
}

/** The output fields the item adds, in its order (shared/operations/types.ts `OutputField`). */
export function derivedOutputFields(shape: ItemShape): { key: string; label: string; type: 'string' | 'number' | 'datetime' }[] {
  return Object.entries(shape.fields).map(([key, field]) => ({ key, label: field.label, type: field.type ?? ('count' in field ? 'number' : 'string') }));
}

export function shapeItem(shape: ItemShape, scope: Scope): Record<string, unknown> {
  const base = shape.spread ? at(scope, shape.spread) : null;
  const spread = base !== null && typeof base === 'object' && !Array.isArray(base) ? base : {};
  const fields = Object.fromEntries(Object.entries(shape.fields).map(([key, expression]) => [key, evaluate(expression, scope)]));
  return { ...spread, ...fields };
}

/** The variable an expression reads from (`body` or `item`). */
const rootOf = (expression: Expression) => ('path' in expression ? expression.path : 'count' in expression ? expression.count : expression.join).split('.')[0];

/**
 * One item per element of one answer, as `shapeItem` makes each: a field that reads only the
 * answer (`body`, such as a summary of everyone in it) is worked out once for the answer, not
 * once per element, so shaping stays linear in the answer's size.
 */
export function shapeItems(shape: ItemShape, body: unknown, elements: readonly unknown[]): Record<string, unknown>[] {
  const once = new Map<string, unknown>();
  for (const [key, expression] of Object.entries(shape.fields)) if (rootOf(expression) === 'body') once.set(key, evaluate(expression, { body }));
  return elements.map((item) => {
    const scope = { body, item };
    const base = shape.spread ? at(scope, shape.spread) : null;
    const spread = base !== null && typeof base === 'object' && !Array.isArray(base) ? base : {};
    const fields = Object.fromEntries(
      Object.entries(shape.fields).map(([key, expression]) => [key, once.has(key) ? once.get(key) : evaluate(expression, scope)]),
    );
    return { ...spread, ...fields };
  });
}
