import type { Expression, ItemShape } from '../../shared/operations/item-shape.ts';

/**
 * The shared item shapes as IML. Their paths already name Make's variables (`body`, `item`),
 * so each expression translates word for word; the runner's tests check both sides agree.
 */
/** A string literal in IML. */
export const imlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function imlOf(expression: Expression): string {
  if ('path' in expression) return `{{${expression.path}}}`;
  if ('count' in expression) return `{{length(${expression.count})}}`;
  return `{{join(map(${expression.join}, ${imlString(expression.field)}), ${imlString(expression.separator)})}}`;
}

/** An output template: the spread source first (`"{{...}}"`), then each derived field. */
export function outputTemplate(shape: ItemShape): Record<string, string> {
  const fields = Object.fromEntries(Object.entries(shape.fields).map(([key, expression]) => [key, imlOf(expression)]));
  return shape.spread ? { '{{...}}': `{{${shape.spread}}}`, ...fields } : fields;
}

/** An optional parameter: left out of the request when empty (Make may pass '' for a cleared field). */
export const optionalParameter = (name: string) => `{{ifempty(parameters.${name}, undefined)}}`;

/** What people type around phone numbers, removed before sending (assumption `phone-format`). */
const PHONE_SEPARATORS = [' ', '-', '(', ')', '.'];
export const phoneParameter = (name: string) =>
  `{{ifempty(${PHONE_SEPARATORS.reduce((inner, separator) => `replace(${inner}, ${imlString(separator)}, '')`, `toString(parameters.${name})`)}, undefined)}}`;
