/**
 * A strict evaluator for the subset of Make's IML (`{{ … }}` in custom-app JSON) that our
 * generated app uses. Make's engine is private, so anything outside the subset is refused
 * with an ImlError rather than guessed at.
 */
import { ImlError } from './errors.ts';
import { evaluate, type ImlScope } from './evaluate.ts';
import { parse } from './parser.ts';
import { renderTemplate as render } from './template.ts';

export { ImlError } from './errors.ts';
export { isTruthy } from './values.ts';
export type { ImlScope } from './evaluate.ts';
export { expressionsIn } from './template.ts';

/**
 * Input nested thousands of levels deep, or a result too long to hold, exhausts the stack or
 * the string limit (RangeError): that is still input the subset cannot evaluate, so it is an
 * ImlError like any other, and a caller can rely on one error type.
 */
function bounded<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof RangeError) throw new ImlError(`${what} is nested too deeply or gives a result too large to evaluate (${error.message})`);
    throw error;
  }
}

/** Evaluates one expression (the text inside {{ }}). */
export function evaluateExpression(source: string, scope: ImlScope): unknown {
  return bounded(`The expression "${source.slice(0, 60)}"`, () => evaluate(parse(source), scope, source));
}

/** Renders a JSON template against a scope (see template.ts for the rules). */
export function renderTemplate(template: unknown, scope: ImlScope): unknown {
  return bounded('The template', () => render(template, scope));
}

/**
 * Checks that an expression is in the subset (syntax, function names, argument counts)
 * without evaluating it, so tests can vet expressions without building a scope.
 */
export function checkExpression(source: string): void {
  bounded(`The expression "${source.slice(0, 60)}"`, () => parse(source));
}
