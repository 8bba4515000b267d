import type { BinaryOperator, Expr } from './ast.ts';
import { ValueProblem, imlErrorAt } from './errors.ts';
import { lookupFunction } from './functions.ts';
import { conditionTruth, kindOf, readProperty, toText } from './values.ts';

/** The variables an expression can see; only its own keys exist. */
export type ImlScope = Readonly<Record<string, unknown>>;

/**
 * Evaluates a parsed expression. `source` is only used to say where an error happened.
 * Every error leaving here is an ImlError located at the node that failed.
 */
export function evaluate(expression: Expr, scope: ImlScope, source: string): unknown {
  const fail = (what: string, node: Expr): never => {
    throw imlErrorAt(what, source, node.at);
  };

  function run(node: Expr): unknown {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'variable':
        // Own keys only: "toString" or "constructor" must not resolve through the prototype.
        if (!Object.hasOwn(scope, node.name)) return fail(`Unknown variable ${node.name}`, node);
        return scope[node.name];
      case 'member':
        return readProperty(run(node.object), node.name);
      case 'index':
        return index(node);
      case 'not':
        return located(node, () => !conditionTruth(run(node.operand)));
      case 'binary':
        return binary(node.operator, node);
      case 'call':
        return call(node);
    }
  }

  /** 1-based: [1] is the first element, [-1] the last, [0] and out of range give undefined. */
  function index(node: Extract<Expr, { kind: 'index' }>): unknown {
    const target = run(node.object);
    const position = run(node.index);
    if (typeof position !== 'number' || !Number.isInteger(position)) {
      return fail(`An index must be a whole number, got ${typeof position === 'number' ? position : kindOf(position)}`, node.index);
    }
    if (!Array.isArray(target) || position === 0) return undefined;
    return position > 0 ? target[position - 1] : target.at(position);
  }

  function binary(operator: BinaryOperator, node: Extract<Expr, { kind: 'binary' }>): unknown {
    // && and || short-circuit. Make's docs do not say what they give for values that are not
    // true or false (the operand, as in JavaScript, or a boolean), so the generator gives them
    // booleans only, and this evaluator refuses anything else.
    const bool = (side: Expr): boolean => {
      const value = run(side);
      if (typeof value !== 'boolean')
        return fail(
          `Operator '${operator}' takes true or false (Make does not document what it gives for other values), got ${kindOf(value)}: compare explicitly`,
          side,
        );
      return value;
    };
    if (operator === '&&') return bool(node.left) ? bool(node.right) : false;
    if (operator === '||') return bool(node.left) ? true : bool(node.right);
    const left = run(node.left);
    const right = run(node.right);
    switch (operator) {
      case '==':
        return left === right;
      case '!=':
        return left !== right;
      case '+':
        if (typeof left === 'number' && typeof right === 'number') return left + right;
        if (typeof left === 'string' || typeof right === 'string') return located(node, () => toText(left) + toText(right));
        return fail(`Operator '+' needs two numbers or at least one text, got ${kindOf(left)} and ${kindOf(right)}`, node);
    }
    if (typeof left !== 'number' || typeof right !== 'number') {
      return fail(`Operator '${operator}' needs two numbers, got ${kindOf(left)} and ${kindOf(right)}`, node);
    }
    switch (operator) {
      case '-':
        return left - right;
      case '*':
        return left * right;
      case '/':
      case '%':
        // JS would give Infinity or NaN, which no JSON body can carry; refuse instead.
        if (right === 0) return fail(`Division by zero with '${operator}'`, node);
        return operator === '/' ? left / right : left % right;
      case '<':
        return left < right;
      case '<=':
        return left <= right;
      case '>':
        return left > right;
      case '>=':
        return left >= right;
    }
  }

  function call(node: Extract<Expr, { kind: 'call' }>): unknown {
    // The parser only builds calls to known functions.
    const spec = lookupFunction(node.name) ?? fail(`Unknown function "${node.name}"`, node);
    if (spec.lazy) return located(node, () => spec.apply(node.args.map((arg) => () => run(arg))));
    const values = node.args.map(run);
    return located(node, () => spec.apply(values));
  }

  /** Turns a ValueProblem raised by a helper into an ImlError that says where. */
  function located<T>(node: Expr, action: () => T): T {
    try {
      return action();
    } catch (error) {
      if (error instanceof ValueProblem) return fail(error.message, node);
      throw error;
    }
  }

  return run(expression);
}
