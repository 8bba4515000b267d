import { ValueProblem } from './errors.ts';

/**
 * Value rules shared by operators and functions: what counts as true, as empty, how a
 * value becomes text, and forgiving property reads. Kept in one place so `if`, `&&`, `!`
 * and `ifempty` can never disagree.
 */

export type PlainObject = Record<string, unknown>;

/**
 * A JSON-like object (not an array, Date, Map, Buffer…). Uses the tag rather than the
 * prototype so objects from another realm (jest's vm contexts) still count.
 */
export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Object]';
}

/** Name of a value's kind, for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** JS truthiness, except that an empty array is false too. */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/**
 * Truth as an IML condition (`if`, `!`) reads it, refusing the one case Make's docs leave open:
 * whether an empty array is true (help.make.com/general-functions says nothing of it). The
 * generator must not depend on it, so our evaluator fails loudly if it ever does.
 */
export function conditionTruth(value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0)
    throw new ValueProblem('Make does not document whether an empty array is true or false: test its length instead');
  return isTruthy(value);
}

/** What `ifempty` treats as missing: undefined, null, '' and [] (the generator never asks about []: functions.ts). */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The toString rules: text as is, scalars via String, null/undefined → '', the rest as JSON. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) || isPlainObject(value)) return JSON.stringify(value);
  throw new ValueProblem(`Cannot convert a ${kindOf(value)} to text`);
}

/**
 * Reads an own property. Anything that is not a plain object (undefined, null, text,
 * numbers, arrays) has no properties: the result is undefined, as Make's forgiving reads
 * give. Own properties only, so `constructor` or `__proto__` never leak out.
 */
export function readProperty(value: unknown, name: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

/** Follows a dotted path ('team.name') with forgiving reads. */
export function readPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((current, name) => readProperty(current, name), value);
}

/**
 * Sets an own property. Plain assignment of "__proto__" would change the prototype
 * instead of adding a key, and keys come from data we do not control.
 */
export function setProperty(target: PlainObject, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
