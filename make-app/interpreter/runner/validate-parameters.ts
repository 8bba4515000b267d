import { MakeError } from './make-error.ts';

type Parameter = { name?: unknown; validate?: unknown };

/**
 * Make's check of a module's parameters before the module runs (a mapped value is checked
 * once mapped, at run time): a text parameter's value must match its `validate.pattern`
 * (parameters.json: "Specifies a RegExp pattern that a text parameter should conform to").
 * A value that does not is Make's BundleValidationError ("the bundle entering the module
 * doesn't pass validation": help.make.com/types-of-errors), and no request is made. Empty
 * values are left to Make's own processing of empty values (empty-values.ts).
 */
export function validateParameters(where: string, parameters: unknown, values: Readonly<Record<string, unknown>>): void {
  if (!Array.isArray(parameters)) return;
  const failed = (parameters as Parameter[]).filter((parameter) => {
    const pattern = (parameter.validate as { pattern?: unknown } | undefined)?.pattern;
    const value = typeof parameter.name === 'string' ? values[parameter.name] : undefined;
    return typeof pattern === 'string' && typeof value === 'string' && !new RegExp(pattern).test(value);
  });
  if (failed.length === 0) return;
  const names = failed.map((parameter) => `'${String(parameter.name)}'`).join(', ');
  throw new MakeError(
    'BundleValidationError',
    `Validation failed for ${failed.length} parameter(s) of ${where}: the value of ${names} does not match its pattern.`,
  );
}
