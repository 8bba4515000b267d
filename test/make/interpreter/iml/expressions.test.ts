import { describe, expect, it } from '@jest/globals';
import { evaluateExpression, ImlError, type ImlScope } from '../../../../make-app/interpreter/iml/index.ts';
import { imlErrorOf } from './support.ts';

const scope: ImlScope = {
  parameters: { teamname: 'Ops', 'First Name': 'Ann', null: 'a key called null', nested: { deep: { value: 7 } } },
  headers: { 'content-type': 'application/json' },
  body: { items: [{ name: 'first' }, { name: 'second' }, { name: 'third' }] },
  list: [10, 20, 30],
  empty: [],
  obj: {},
  text: 'abc',
  zero: 0,
  one: '1',
  item: undefined,
  nothing: null,
};
const ev = (source: string): unknown => evaluateExpression(source, scope);
const message = (source: string): string => imlErrorOf(() => ev(source)).message;

describe('literals', () => {
  it('reads integers, decimals and negative numbers', () => {
    expect(ev('42')).toBe(42);
    expect(ev('3.25')).toBe(3.25);
    expect(ev('-1')).toBe(-1);
    expect(ev('  7  ')).toBe(7);
  });

  it('reads single- and double-quoted strings with their escapes', () => {
    expect(ev("'plain'")).toBe('plain');
    expect(ev('"plain"')).toBe('plain');
    expect(ev(String.raw`'it\'s'`)).toBe("it's");
    expect(ev(String.raw`"say \"hi\""`)).toBe('say "hi"');
    expect(ev(String.raw`'back\\slash'`)).toBe('back\\slash');
    expect(ev(`'a "double" inside single'`)).toBe('a "double" inside single');
    expect(ev("''")).toBe('');
  });

  it('reads true, false, null and undefined', () => {
    expect(ev('true')).toBe(true);
    expect(ev('false')).toBe(false);
    expect(ev('null')).toBeNull();
    expect(ev('undefined')).toBeUndefined();
  });
});

describe('variables', () => {
  it('gives the scope value itself', () => {
    expect(ev('parameters')).toBe(scope.parameters);
    expect(ev('list')).toBe(scope.list);
  });

  it('treats a key present with the value undefined as existing', () => {
    expect(ev('item')).toBeUndefined();
    expect(ev('nothing')).toBeNull();
  });

  it('refuses a variable that is not in the scope, saying which and where', () => {
    expect(message('connection')).toBe('Unknown variable connection at column 1 in "{{connection}}"');
    expect(message('1 + missing')).toBe('Unknown variable missing at column 5 in "{{1 + missing}}"');
  });

  it('does not find variables through the prototype', () => {
    expect(message('toString')).toContain('Unknown variable toString');
    expect(message('constructor')).toContain('Unknown variable constructor');
    expect(imlErrorOf(() => evaluateExpression('hasOwnProperty', {})).message).toContain('Unknown variable hasOwnProperty');
  });
});

describe('member access', () => {
  it('follows dotted paths', () => {
    expect(ev('parameters.teamname')).toBe('Ops');
    expect(ev('parameters.nested.deep.value')).toBe(7);
  });

  it('reads backtick-quoted names', () => {
    expect(ev('headers.`content-type`')).toBe('application/json');
    expect(ev('parameters.`First Name`')).toBe('Ann');
  });

  it('treats keywords after a dot as property names', () => {
    expect(ev('parameters.null')).toBe('a key called null');
  });

  it('gives undefined for missing properties and properties of undefined, null and non-objects', () => {
    expect(ev('parameters.missing')).toBeUndefined();
    expect(ev('parameters.missing.deeper.still')).toBeUndefined();
    expect(ev('item.name')).toBeUndefined();
    expect(ev('nothing.name')).toBeUndefined();
    expect(ev('text.length')).toBeUndefined();
    expect(ev('zero.x')).toBeUndefined();
    expect(ev('list.length')).toBeUndefined();
  });

  it('never reads through the prototype', () => {
    expect(ev('obj.constructor')).toBeUndefined();
    expect(ev('obj.__proto__')).toBeUndefined();
    expect(ev('obj.hasOwnProperty')).toBeUndefined();
  });

  it('indexes arrays from 1, and from the end with negative numbers', () => {
    expect(ev('list[1]')).toBe(10);
    expect(ev('list[3]')).toBe(30);
    expect(ev('list[-1]')).toBe(30);
    expect(ev('list[-3]')).toBe(10);
    expect(ev('list[1 + 1]')).toBe(20);
    expect(ev('body.items[2].name')).toBe('second');
    expect(ev('body.items[-1].name')).toBe('third');
  });

  it('gives undefined for index 0, out-of-range indexes and indexing a non-array', () => {
    expect(ev('list[0]')).toBeUndefined();
    expect(ev('list[4]')).toBeUndefined();
    expect(ev('list[-4]')).toBeUndefined();
    expect(ev('empty[1]')).toBeUndefined();
    expect(ev('item[1]')).toBeUndefined();
    expect(ev('parameters[1]')).toBeUndefined();
    expect(ev('text[1]')).toBeUndefined();
  });

  it('refuses an index that is not a whole number', () => {
    expect(message('list[1.5]')).toBe('An index must be a whole number, got 1.5 at column 6 in "{{list[1.5]}}"');
    expect(message('list[one]')).toContain('An index must be a whole number, got string');
    expect(message('list[item]')).toContain('got undefined');
  });
});

describe('arithmetic', () => {
  it('computes * / % + -', () => {
    expect(ev('7 * 6')).toBe(42);
    expect(ev('7 / 2')).toBe(3.5);
    expect(ev('7 % 4')).toBe(3);
    expect(ev('2 + 3')).toBe(5);
    expect(ev('2 - 5')).toBe(-3);
    expect(ev('3 - -1')).toBe(4);
  });

  it('applies precedence and left associativity', () => {
    expect(ev('1 + 2 * 3')).toBe(7);
    expect(ev('2 * 3 + 4 * 5')).toBe(26);
    expect(ev('(1 + 2) * 3')).toBe(9);
    expect(ev('10 - 4 - 3')).toBe(3);
    expect(ev('12 / 3 / 2')).toBe(2);
    expect(ev('10 - 2 * 3 % 4')).toBe(8);
    expect(ev('((1))')).toBe(1);
  });

  it('concatenates with + when either side is text, using the toString rules', () => {
    expect(ev("'a' + 'b'")).toBe('ab');
    expect(ev("'n=' + 1")).toBe('n=1');
    expect(ev("1 + '2'")).toBe('12');
    expect(ev("1 + 2 + 'x'")).toBe('3x');
    expect(ev("'x' + item")).toBe('x');
    expect(ev("nothing + 'x'")).toBe('x');
    expect(ev("'v:' + true")).toBe('v:true');
    expect(ev("'' + list")).toBe('[10,20,30]');
  });

  it('refuses + between values that are neither two numbers nor involve text', () => {
    expect(message('1 + item')).toBe('Operator \'+\' needs two numbers or at least one text, got number and undefined at column 3 in "{{1 + item}}"');
    expect(message('true + 1')).toContain('got boolean and number');
    expect(message('list + obj')).toContain('got array and object');
  });

  it('refuses the other arithmetic operators on anything but numbers', () => {
    expect(message("'5' - 1")).toBe("Operator '-' needs two numbers, got string and number at column 5 in \"{{'5' - 1}}\"");
    expect(message('item * 2')).toContain("Operator '*' needs two numbers, got undefined and number");
    expect(message('text % 2')).toContain("Operator '%' needs two numbers");
    expect(message('4 / one')).toContain("Operator '/' needs two numbers");
  });

  it('refuses division by zero rather than produce Infinity or NaN', () => {
    expect(message('1 / 0')).toContain("Division by zero with '/'");
    expect(message('1 % zero')).toContain("Division by zero with '%'");
  });
});

describe('comparison and equality', () => {
  it('compares numbers', () => {
    expect(ev('1 < 2')).toBe(true);
    expect(ev('2 < 2')).toBe(false);
    expect(ev('2 <= 2')).toBe(true);
    expect(ev('3 > 4')).toBe(false);
    expect(ev('4 >= 4')).toBe(true);
    expect(ev('5 >= 6')).toBe(false);
  });

  it('refuses comparing anything but numbers', () => {
    expect(message("'a' < 'b'")).toBe("Operator '<' needs two numbers, got string and string at column 5 in \"{{'a' < 'b'}}\"");
    expect(message('item <= 1')).toContain("Operator '<=' needs two numbers, got undefined and number");
    expect(message('1 > one')).toContain("Operator '>' needs two numbers");
    expect(message('nothing >= 0')).toContain("Operator '>=' needs two numbers, got null");
  });

  it('compares strictly with == and !=', () => {
    expect(ev("1 == '1'")).toBe(false);
    expect(ev("1 != '1'")).toBe(true);
    expect(ev('one == "1"')).toBe(true);
    expect(ev('null == undefined')).toBe(false);
    expect(ev('parameters.missing == undefined')).toBe(true);
    expect(ev('parameters == parameters')).toBe(true);
    expect(ev('obj == obj')).toBe(true);
    expect(ev('2 != 2')).toBe(false);
  });

  it('binds comparison tighter than equality, and arithmetic tighter than both', () => {
    expect(ev('1 < 2 == true')).toBe(true);
    expect(ev('1 + 2 == 3')).toBe(true);
    expect(ev('2 * 2 > 3')).toBe(true);
  });
});

describe('logic', () => {
  // Make's docs say nothing of an empty array's truth (help.make.com/general-functions): refused.
  it('treats false, 0, empty text, null and undefined as false, and refuses to judge the empty array', () => {
    expect(message('!empty')).toContain('Make does not document whether an empty array is true or false');
    for (const falsy of ['false', '0', "''", 'null', 'undefined', 'item']) {
      expect({ falsy, negated: ev(`!${falsy}`) }).toEqual({ falsy, negated: true });
    }
    for (const truthy of ['true', '1', "'x'", "' '", 'list', 'obj', 'parameters']) {
      expect({ truthy, negated: ev(`!${truthy}`) }).toEqual({ truthy, negated: false });
    }
  });

  // Make's docs do not say whether && and || give a boolean or an operand for other values
  // (https://help.make.com/math-functions and general-functions list no such rule): the generator
  // gives them booleans only, and the evaluator refuses anything else, so the two readings agree.
  it('takes true or false on each side, and refuses other values as undocumented', () => {
    expect(ev('true && false')).toBe(false);
    expect(ev('false || true')).toBe(true);
    expect(ev("'a' != '' && 1 < 2")).toBe(true);
    expect(message("'a' && 'b'")).toContain("Operator '&&' takes true or false");
    expect(message("false || ''")).toContain("Operator '||' takes true or false");
    expect(message('list || true')).toContain('got array');
  });

  it('short-circuits: the right side is not evaluated when the left decides', () => {
    expect(ev('false && missing')).toBe(false);
    expect(ev('true || missing')).toBe(true);
    expect(ev("false && 1 < 'a'")).toBe(false);
    expect(message('true && missing')).toContain('Unknown variable missing');
    expect(message('false || missing')).toContain('Unknown variable missing');
  });

  it('still refuses unknown functions and wrong arity in a branch that would not run: the whole expression is parsed first', () => {
    expect(message('false && unknownFn()')).toBe('Unknown function "unknownFn" at column 10 in "{{false && unknownFn()}}"');
    expect(message('true || lower()')).toContain('Function "lower" expects 1 argument, got 0');
    expect(message("if(true, 1, fooBar('x'))")).toContain('Unknown function "fooBar"');
  });

  it('binds ! tightest, then &&, then ||', () => {
    // (!0) == 1 is false; !(0 == 1) would be true.
    expect(ev('!0 == 1')).toBe(false);
    // true || (false && false) is true; (true || false) && false would be false.
    expect(ev('true || false && false')).toBe(true);
    expect(ev('!true || true')).toBe(true);
    expect(ev('!(true || true)')).toBe(false);
    expect(ev('!!list')).toBe(true);
    expect(ev('1 < 2 && 2 < 3')).toBe(true);
    expect(ev('1 == 2 || 2 == 2')).toBe(true);
  });
});

describe('evaluateExpression errors', () => {
  it('are ImlErrors', () => {
    expect(() => ev('missing')).toThrow(ImlError);
    expect(imlErrorOf(() => ev('missing')).name).toBe('ImlError');
  });
});
