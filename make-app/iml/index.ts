/**
 * A strict evaluator for the subset of Make's IML (`{{ … }}` in custom-app JSON) that our
 * generated app uses. Make's engine is private, so anything outside the subset is refused
 * with an ImlError rather than guessed at.
 */
import { evaluate, type ImlScope } from './evaluate.ts';
import { parse } from './parser.ts';

export { ImlError } from './errors.ts';
export type { ImlScope } from './evaluate.ts';
export { expressionsIn, renderTemplate } from './template.ts';

/** Evaluates one expression (the text inside {{ }}). */
export function evaluateExpression(source: string, scope: ImlScope): unknown {
  return evaluate(parse(source), scope, source);
}

/**
 * Checks that an expression is in the subset (syntax, function names, argument counts)
 * without evaluating it, so tests can vet expressions without building a scope.
 */
export function checkExpression(source: string): void {
  parse(source);
}
