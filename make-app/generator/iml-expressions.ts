import type { Expression, ItemShape } from '../../shared/operations/item-shape.ts';
import { PHONE_SEPARATORS } from '../../shared/schemas/primitives.ts';

/**
 * The shared item shapes as IML. Their paths already name Make's variables (`body`, `item`),
 * so each expression translates word for word; the runner's tests check both sides agree.
 */
/** A string literal in IML. */
export const imlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * "Is a list" and "is an object" in the subset, which has no type tests: `toString` leaves
 * text as it is and writes lists and objects as JSON, so a value that is not its own text and
 * whose JSON starts with "[" (or "{") is a list (or an object).
 */
const notText = (path: string) => `toString(${path}) != ${path}`;
export const isList = (path: string) => `${notText(path)} && substring(toString(${path}), 0, 1) == '['`;
export const isObject = (path: string) => `${notText(path)} && substring(toString(${path}), 0, 1) == '{'`;

/**
 * One expression as IML. `tolerant` guards lists, so a payload of an unexpected shape yields
 * empty values instead of failing (a hook delivery must never be lost to its shape).
 */
export function imlOf(expression: Expression, tolerant = false): string {
  if ('path' in expression) return `{{${expression.path}}}`;
  if ('count' in expression) {
    const count = `length(${expression.count})`;
    return tolerant ? `{{if(${isList(expression.count)}, ${count}, 0)}}` : `{{${count}}}`;
  }
  const joined = `join(map(${expression.join}, ${imlString(expression.field)}), ${imlString(expression.separator)})`;
  return tolerant ? `{{if(${isList(expression.join)}, ${joined}, '')}}` : `{{${joined}}}`;
}

/**
 * An output template: the spread source first (`"{{...}}"`), then each derived field.
 * Tolerant (hook payloads): only an object is spread, and anything else is kept as `payload`,
 * as the Zapier trigger keeps it (shared/operations/on-call-change-item.ts).
 */
export function outputTemplate(shape: ItemShape, { tolerant = false } = {}): Record<string, string> {
  const fields = Object.fromEntries(Object.entries(shape.fields).map(([key, expression]) => [key, imlOf(expression, tolerant)]));
  if (!shape.spread) return fields;
  if (!tolerant) return { '{{...}}': `{{${shape.spread}}}`, ...fields };
  return {
    '{{...}}': `{{if(${isObject(shape.spread)}, ${shape.spread}, undefined)}}`,
    ...fields,
    payload: `{{if(${isObject(shape.spread)}, undefined, ${shape.spread})}}`,
  };
}

/**
 * An optional parameter as it is: Make leaves an empty field out of the request itself
 * (Custom apps › Processing of 'empty' values), and `ifempty(x, undefined)` is the bad practice
 * Best practices › Processing of input parameters names.
 */
export const optionalParameter = (name: string) => `{{parameters.${name}}}`;

/**
 * What people type around phone numbers, removed before sending (assumption `phone-format`):
 * one pattern with `g`, which Make documents as replacing every match (help.make.com, text
 * functions: replace). An empty field stays as Make gives it (left out, or `erase`'s empty value).
 */
const separatorPattern = `/[${Object.keys(PHONE_SEPARATORS)
  .map((c) => c.replace(/[\\\]^-]/g, '\\$&'))
  .join('')}]/g`;
export const phoneParameter = (name: string, whenEmpty = `parameters.${name}`) =>
  `{{if(parameters.${name}, replace(toString(parameters.${name}), ${separatorPattern}, ''), ${whenEmpty})}}`;
