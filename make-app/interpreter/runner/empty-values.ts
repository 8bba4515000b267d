/**
 * Make's own processing of empty values (Custom apps › Processing of 'empty' values, apps of
 * platform version 2): a field left empty reaches the app as undefined, so it is left out of the
 * request without any IML; only the `erase` keyword sends an empty value on purpose.
 * https://developers.make.com/custom-apps-documentation/other/processing-of-empty-values
 */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The parameters as the app receives them: empty fields gone. */
export function withoutEmptyValues(parameters: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => !isEmpty(value)));
}
