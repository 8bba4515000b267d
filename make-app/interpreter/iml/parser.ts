import type { BinaryOperator, Expr } from './ast.ts';
import { imlErrorAt } from './errors.ts';
import { describeArity, lookupFunction } from './functions.ts';
import { describeToken, tokenize, type Token } from './tokens.ts';

/**
 * Pratt parser for one expression. It parses the whole expression before anything runs,
 * so unsupported syntax, unknown functions and wrong argument counts are refused even in
 * branches that evaluation would skip (`false && fooBar()` is an error).
 */

// Binding powers: higher binds tighter. All binary operators are left-associative.
const INFIX: Readonly<Record<string, number>> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};
const PREFIX_NOT = 7;
// `emptyarray` is Make's keyword for []; frozen, since `add` and the rest never mutate their input.
const LITERAL_NAMES: Readonly<Record<string, boolean | null | undefined | readonly never[]>> = {
  true: true,
  false: false,
  null: null,
  undefined: undefined,
  emptyarray: Object.freeze([]),
};

/**
 * Parsed expressions by their source. A component's IML is the same text on every run, so each
 * is read once (the app's longest, the rule of visible controls written out, is 8 KB); an AST is
 * never changed once built. Bounded, since property tests parse generated sources by the thousand.
 */
const parsed = new Map<string, Expr>();
const MAX_PARSED = 1_000;

export function parse(source: string): Expr {
  const known = parsed.get(source);
  if (known) return known;
  const expression = parseAnew(source);
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(source, expression);
  return expression;
}

function parseAnew(source: string): Expr {
  const tokens = tokenize(source);
  let position = 0;

  const fail = (what: string, at: number): never => {
    throw imlErrorAt(what, source, at);
  };
  // tokenize always ends with an 'end' token, and we never step past it.
  const peek = (): Token => tokens[position] ?? fail('internal: read past the end', source.length);
  const next = (): Token => {
    const token = peek();
    if (token.kind !== 'end') position += 1;
    return token;
  };
  const isPunctuator = (token: Token, value: string): boolean => token.kind === 'punctuator' && token.value === value;
  const expect = (value: string, context: string): void => {
    const token = next();
    if (!isPunctuator(token, value)) fail(`Expected '${value}' ${context} but found ${describeToken(token)}`, token.start);
  };

  function parseExpression(minPower: number): Expr {
    let left = parsePrefix();
    for (;;) {
      const token = peek();
      if (token.kind !== 'punctuator') return left;
      if (token.value === '.' || token.value === '[' || token.value === '(') {
        left = parsePostfix(left);
        continue;
      }
      const power = INFIX[token.value];
      if (power === undefined || power <= minPower) return left;
      next();
      const right = parseExpression(power);
      // Located at the operator, so a type error points at the operator that failed.
      left = { kind: 'binary', operator: token.value as BinaryOperator, left, right, at: token.start };
    }
  }

  function parsePrefix(): Expr {
    const token = next();
    switch (token.kind) {
      case 'number':
      case 'string':
        return { kind: 'literal', value: token.value, at: token.start };
      case 'name':
        if (isPunctuator(peek(), '(')) return parseCall(token.value, token.start);
        if (Object.hasOwn(LITERAL_NAMES, token.value)) return { kind: 'literal', value: LITERAL_NAMES[token.value], at: token.start };
        return { kind: 'variable', name: token.value, at: token.start };
      case 'regex':
        try {
          return { kind: 'literal', value: new RegExp(token.pattern, token.flags), at: token.start };
        } catch (error) {
          return fail(`Invalid pattern: ${(error as Error).message}`, token.start);
        }
      case 'quotedName':
        return fail("Backtick names are only supported after '.' (as in parameters.`First Name`)", token.start);
      case 'end':
        return fail(source.trim() === '' ? 'Empty expression' : 'Expected an expression but the expression ended', token.start);
      case 'punctuator':
        break;
    }
    switch (token.value) {
      case '(': {
        const inner = parseExpression(0);
        expect(')', 'to close the parenthesis');
        return inner;
      }
      case '!':
        return { kind: 'not', operand: parseExpression(PREFIX_NOT), at: token.start };
      case '-': {
        // Only negative number literals (for a[-1]); the subset has no general unary minus.
        const number = next();
        if (number.kind !== 'number') return fail("Unary '-' is only supported directly before a number (as in a[-1])", token.start);
        return { kind: 'literal', value: -number.value, at: token.start };
      }
      case '[':
        return fail("Array literals ('[...]') are not supported", token.start);
      default:
        return fail(`Expected an expression but found ${describeToken(token)}`, token.start);
    }
  }

  function parsePostfix(object: Expr): Expr {
    const token = next();
    if (isPunctuator(token, '.')) {
      const name = next();
      // Any word works after '.', keywords included: body.null is a property, not a literal.
      if (name.kind !== 'name' && name.kind !== 'quotedName') {
        return fail(`Expected a property name after '.' but found ${describeToken(name)}`, name.start);
      }
      return { kind: 'member', object, name: name.value, at: object.at };
    }
    if (isPunctuator(token, '[')) {
      const index = parseExpression(0);
      if (index.kind === 'literal' && typeof index.value === 'string') {
        fail("Bracket access by key (a['key']) is not supported; use a.key or a.`key`", token.start);
      }
      expect(']', 'to close the index');
      return { kind: 'index', object, index, at: object.at };
    }
    return fail('Only the supported functions can be called, by name (calling a property or an expression is not supported)', token.start);
  }

  function parseCall(name: string, at: number): Expr {
    const spec = lookupFunction(name);
    if (!spec) return fail(`Unknown function "${name}"`, at);
    next(); // '('
    const args: Expr[] = [];
    if (!isPunctuator(peek(), ')')) {
      for (;;) {
        args.push(parseExpression(0));
        const separator = next();
        if (isPunctuator(separator, ')')) break;
        if (!isPunctuator(separator, ',')) fail(`Expected ',' or ')' in the arguments of ${name}() but found ${describeToken(separator)}`, separator.start);
      }
    } else {
      next();
    }
    if (args.length < spec.arity.min || args.length > spec.arity.max) {
      fail(`Function "${name}" expects ${describeArity(spec.arity)}, got ${args.length}`, at);
    }
    return { kind: 'call', name, args, at };
  }

  const expression = parseExpression(0);
  const rest = peek();
  if (rest.kind !== 'end') fail(`Unexpected ${describeToken(rest)} after a complete expression`, rest.start);
  return expression;
}
