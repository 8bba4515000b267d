import { describe, expect, it } from '@jest/globals';
import { checkExpression, evaluateExpression, renderTemplate, type ImlScope } from '../../../../make-app/interpreter/iml/index.ts';
import { imlErrorOf } from './support.ts';

// Everything outside the subset is refused with a message that names the construct, says
// where (column, 1-based) and quotes the expression.
const scope: ImlScope = { a: { b: 1 }, x: 1, list: [1, 2] };
const message = (source: string): string => imlErrorOf(() => evaluateExpression(source, scope)).message;

describe('refused constructs', () => {
  it('assignment and the single = operator', () => {
    expect(message('x = 1')).toBe("Operator '=' is not supported (there is no assignment; compare with '==') at column 3 in \"{{x = 1}}\"");
  });

  it('=== and !== (== and != are already strict)', () => {
    expect(message('x === 1')).toBe("Operator '===' is not supported (use '==', which is already strict) at column 3 in \"{{x === 1}}\"");
    expect(message('x !== 1')).toContain("Operator '!==' is not supported");
  });

  it('the ternary operator', () => {
    expect(message("x ? 'a' : 'b'")).toBe("The ternary operator '?:' is not supported (use if(cond, a, b)) at column 3 in \"{{x ? 'a' : 'b'}}\"");
  });

  it('lambdas', () => {
    expect(message('map(list, y => y)')).toBe('Lambdas (\'=>\') are not supported at column 13 in "{{map(list, y => y)}}"');
  });

  it('array literals', () => {
    expect(message('[1, 2]')).toBe('Array literals (\'[...]\') are not supported at column 1 in "{{[1, 2]}}"');
    expect(message('contains([1], x)')).toContain("Array literals ('[...]') are not supported at column 10");
  });

  it('object literals', () => {
    expect(message('{a: 1}')).toBe('Object literals (\'{...}\') are not supported at column 1 in "{{{a: 1}}}"');
    expect(imlErrorOf(() => renderTemplate({ body: '{{ {a: 1} }}' }, scope)).message).toContain("Object literals ('{...}') are not supported");
  });

  it('semicolons as argument separators', () => {
    expect(message("if(x; 'a'; 'b')")).toBe("';' is not supported (separate function arguments with ',') at column 5 in \"{{if(x; 'a'; 'b')}}\"");
  });

  it('unknown functions, including Make functions outside the subset and wrong case', () => {
    expect(message('fooBar(1)')).toBe('Unknown function "fooBar" at column 1 in "{{fooBar(1)}}"');
    expect(message("get(a, 'b')")).toContain('Unknown function "get"');
    expect(message("switch(x, 1, 'one')")).toContain('Unknown function "switch"');
    expect(message("formatDate(x, 'YYYY')")).toContain('Unknown function "formatDate"');
    expect(message('IF(true, 1, 2)')).toContain('Unknown function "IF"');
    expect(message('true(1)')).toContain('Unknown function "true"');
  });

  it('unknown characters and the single & and | operators', () => {
    expect(message('x # 1')).toBe('Unexpected character \'#\' at column 3 in "{{x # 1}}"');
    expect(message('$x')).toContain("Unexpected character '$' at column 1");
    expect(message('x & 1')).toContain("Operator '&' is not supported (use '&&')");
    expect(message('x | 1')).toContain("Operator '|' is not supported (use '||')");
    expect(message('x:1')).toContain("':' is not supported");
  });

  it('unterminated strings and backtick names', () => {
    expect(message("'abc")).toBe('Unterminated string at column 1 in "{{\'abc}}"');
    expect(message('lower("abc)')).toContain('Unterminated string at column 7');
    expect(message("'abc\\")).toContain('Unterminated string');
    expect(message('a.`b c')).toContain('Unterminated backtick name at column 3');
    expect(message('a.``')).toContain('Empty backtick name');
  });

  it('string escapes other than \\\' \\" and \\\\', () => {
    expect(message(String.raw`'a\nb'`)).toBe(String.raw`Unsupported escape '\n' in a string (only \' \" and \\ are supported) at column 3 in "{{'a\nb'}}"`);
  });

  it('{{ without }} in a template', () => {
    expect(imlErrorOf(() => renderTemplate({ url: '/o/{{parameters.id' }, scope)).message).toBe(
      "'{{' without a matching '}}' at column 4 in \"/o/{{parameters.id\" (at url)",
    );
    expect(imlErrorOf(() => renderTemplate('{{ lower("}}") ', scope)).message).toContain("'{{' without a matching '}}'");
  });

  it('an unterminated string inside a template expression is named as such', () => {
    expect(imlErrorOf(() => renderTemplate("{{'abc}}", scope)).message).toBe('Unterminated string at column 1 in "{{\'abc}}" (at the template root)');
  });

  it('bracket access by key', () => {
    expect(message("a['b']")).toBe("Bracket access by key (a['key']) is not supported; use a.key or a.`key` at column 2 in \"{{a['b']}}\"");
  });

  it('unary minus except before a number', () => {
    expect(message('-x')).toContain("Unary '-' is only supported directly before a number (as in a[-1]) at column 1");
    expect(message('list[-x]')).toContain("Unary '-' is only supported directly before a number");
  });

  it('calling a property or an expression', () => {
    expect(message('a.b(1)')).toContain('Only the supported functions can be called, by name');
    expect(message('(lower)(1)')).toContain('Only the supported functions can be called, by name');
  });

  it('the spread ... anywhere but as an object key', () => {
    expect(message('...')).toContain('Spread \'...\' is only supported as an object key written exactly "{{...}}"');
    expect(imlErrorOf(() => renderTemplate({ body: '{{...}}' }, scope)).message).toContain("Spread '...' is only supported as an object key");
  });

  it('backtick names outside member access', () => {
    expect(message('`x`')).toContain("Backtick names are only supported after '.'");
  });

  it('malformed expressions', () => {
    expect(message('')).toBe('Empty expression at column 1 in "{{}}"');
    expect(message('   ')).toContain('Empty expression');
    expect(message('x 1')).toBe('Unexpected number 1 after a complete expression at column 3 in "{{x 1}}"');
    expect(message('1 +')).toContain('Expected an expression but the expression ended at column 4');
    expect(message('(1 + 2')).toContain("Expected ')' to close the parenthesis but found the end of the expression");
    expect(message('list[1')).toContain("Expected ']' to close the index");
    expect(message("lower('a',)")).toContain("Expected an expression but found ')'");
    expect(message("lower('a' 'b')")).toContain("Expected ',' or ')' in the arguments of lower() but found string \"b\"");
    expect(message('a.')).toContain("Expected a property name after '.' but found the end of the expression");
    expect(message('a.1')).toContain("Expected a property name after '.' but found number 1");
    expect(message('1abc')).toContain("Invalid number '1a…'");
    expect(message('* 2')).toContain("Expected an expression but found '*'");
  });

  it('checkExpression refuses the same things without needing a scope', () => {
    expect(() => checkExpression("join(map(body, 'name'), ', ')")).not.toThrow();
    expect(() => checkExpression('missing.variable')).not.toThrow();
    expect(imlErrorOf(() => checkExpression('x = 1')).message).toContain("Operator '='");
    expect(imlErrorOf(() => checkExpression('false && fooBar()')).message).toContain('Unknown function "fooBar"');
  });
});
