import { describe, expect, it } from '@jest/globals';
import { evaluateExpression, ImlError, type ImlScope } from '../../../../make-app/interpreter/iml/index.ts';
import { imlErrorOf } from './support.ts';

const scope: ImlScope = {
  list: [1, 2, 3],
  empty: [],
  obj: { a: 1, b: 'two', c: null },
  text: 'Hello',
  users: [{ name: 'Ann', team: { name: 'Ops' } }, { name: 'Bob', team: { name: 'Dev' } }, { team: { name: 'Sec' } }, { name: null, team: {} }, 'not an object'],
  pairs: [{ key: 'a', value: 1 }, { key: 'b', value: 'x' }, { value: 3 }, { key: null, value: 4 }, { key: 7, value: true }, { key: 'c' }],
  item: undefined,
  nothing: null,
};
const ev = (source: string): unknown => evaluateExpression(source, scope);
const message = (source: string): string => imlErrorOf(() => ev(source)).message;

// https://help.make.com/general-functions: "if (expression; value1; value2): Returns value1 if the
// expression evaluates to true; otherwise it returns value2." Whether an empty array is true is not
// said: the evaluator refuses it, so the generator cannot depend on it.
describe('if', () => {
  it('chooses by truthiness; an empty array is refused as undocumented', () => {
    expect(ev("if(true, 'a', 'b')")).toBe('a');
    expect(ev("if(0, 'a', 'b')")).toBe('b');
    expect(message("if(empty, 'a', 'b')")).toContain('Make does not document whether an empty array is true or false');
    expect(ev("if(list, 'a', 'b')")).toBe('a');
    expect(ev("if(obj.a == 1, 'POST', 'PUT')")).toBe('POST');
  });

  it('evaluates only the chosen branch', () => {
    expect(ev('if(true, 1, missing)')).toBe(1);
    expect(ev('if(false, missing, 2)')).toBe(2);
    expect(message('if(true, missing, 2)')).toContain('Unknown variable missing');
  });
});

// https://help.make.com/general-functions: "ifempty (value1; value2): Returns value1 if this value
// is not empty; otherwise it returns value2." Empty text and a missing value are empty; an empty
// array is not named, so it is refused here and the generator never asks.
describe('ifempty', () => {
  it('falls back for undefined, null and empty text; refuses the empty array as undocumented', () => {
    expect(ev("ifempty(item, 'd')")).toBe('d');
    expect(ev("ifempty(nothing, 'd')")).toBe('d');
    expect(ev("ifempty('', 'd')")).toBe('d');
    expect(message("ifempty(empty, 'd')")).toContain('Make does not document whether ifempty() takes an empty array for empty');
  });

  it('keeps every other value, falsy ones included', () => {
    expect(ev("ifempty(0, 'd')")).toBe(0);
    expect(ev("ifempty(false, 'd')")).toBe(false);
    expect(ev("ifempty(' ', 'd')")).toBe(' ');
    expect(ev("ifempty(list, 'd')")).toBe(scope.list);
    expect(ev("ifempty(obj, 'd')")).toBe(scope.obj);
  });

  it('evaluates the fallback only when it is used', () => {
    expect(ev("ifempty('x', missing)")).toBe('x');
    expect(message("ifempty('', missing)")).toContain('Unknown variable missing');
  });
});

describe('contains', () => {
  it('tests substrings of text', () => {
    expect(ev("contains(text, 'ell')")).toBe(true);
    expect(ev("contains(text, 'xyz')")).toBe(false);
    expect(ev("contains('a1', 1)")).toBe(true);
    expect(ev('contains(text, item)')).toBe(false);
  });

  it('tests array elements with strict equality', () => {
    expect(ev('contains(list, 2)')).toBe(true);
    expect(ev("contains(list, '2')")).toBe(false);
    expect(ev('contains(empty, item)')).toBe(false);
    expect(ev('contains(users, users[1])')).toBe(true);
  });

  it('gives false for undefined and null', () => {
    expect(ev("contains(item, 'a')")).toBe(false);
    expect(ev("contains(nothing, 'a')")).toBe(false);
  });

  it('refuses objects and numbers as the haystack, and objects as a text needle', () => {
    expect(message("contains(obj, 'a')")).toBe('contains() expects text or an array, got object at column 1 in "{{contains(obj, \'a\')}}"');
    expect(message('contains(12, 1)')).toContain('contains() expects text or an array, got number');
    expect(message('contains(text, list)')).toContain('contains() expects text, got array');
  });
});

describe('lower, upper, trim', () => {
  it('transform text', () => {
    expect(ev("lower('AbC')")).toBe('abc');
    expect(ev("upper('AbC')")).toBe('ABC');
    expect(ev("trim('  a b  ')")).toBe('a b');
  });

  it('give empty text for undefined and null, and text for numbers', () => {
    for (const fn of ['lower', 'upper', 'trim']) {
      expect({ fn, undefined: ev(`${fn}(item)`), null: ev(`${fn}(nothing)`), number: ev(`${fn}(12)`) }).toEqual({ fn, undefined: '', null: '', number: '12' });
    }
  });

  it('refuse arrays and objects', () => {
    expect(message('lower(list)')).toContain('lower() expects text, got array');
    expect(message('upper(obj)')).toContain('upper() expects text, got object');
    expect(message('trim(list)')).toContain('trim() expects text, got array');
  });
});

describe('length', () => {
  it('measures text and arrays, and gives 0 for undefined and null', () => {
    expect(ev('length(text)')).toBe(5);
    expect(ev('length(list)')).toBe(3);
    expect(ev('length(empty)')).toBe(0);
    expect(ev("length('')")).toBe(0);
    expect(ev('length(item)')).toBe(0);
    expect(ev('length(nothing)')).toBe(0);
  });

  it('refuses objects (and numbers)', () => {
    expect(message('length(obj)')).toBe('length() expects text or an array, got object at column 1 in "{{length(obj)}}"');
    expect(message('length(3)')).toContain('got number');
  });
});

describe('join', () => {
  it('joins the text of each element, skipping undefined, null and empty text', () => {
    expect(ev("join(list, ', ')")).toBe('1, 2, 3');
    expect(evaluateExpression("join(mixed, '-')", { mixed: [1, 'a', undefined, null, '', true, 0, { a: 1 }, [2]] })).toBe('1-a-true-0-{"a":1}-[2]');
  });

  it('gives empty text for an empty, undefined or null array', () => {
    expect(ev("join(empty, ',')")).toBe('');
    expect(ev("join(item, ',')")).toBe('');
    expect(ev("join(nothing, ',')")).toBe('');
  });

  it('refuses a non-array and a separator that is not text', () => {
    expect(message("join(text, ',')")).toContain('join() expects an array, got string');
    expect(message('join(list, 1)')).toContain('join() expects the separator as text, got number');
    expect(message('join(list, item)')).toContain('got undefined');
  });
});

describe('map', () => {
  it('collects a key of each element, skipping elements without it', () => {
    expect(ev("map(users, 'name')")).toEqual(['Ann', 'Bob', null]);
  });

  it('follows a dotted key', () => {
    expect(ev("map(users, 'team.name')")).toEqual(['Ops', 'Dev', 'Sec']);
  });

  it('gives [] for undefined and null', () => {
    expect(ev("map(item, 'name')")).toEqual([]);
    expect(ev("map(nothing, 'name')")).toEqual([]);
  });

  it('refuses a non-array and a key that is not text', () => {
    expect(message("map(obj, 'a')")).toBe('map() expects an array, got object at column 1 in "{{map(obj, \'a\')}}"');
    expect(message("map(text, 'a')")).toContain('map() expects an array, got string');
    expect(message('map(users, 1)')).toContain('map() expects the key as text, got number');
  });
});

describe('first and last', () => {
  it('give the first and last element', () => {
    expect(ev('first(list)')).toBe(1);
    expect(ev('last(list)')).toBe(3);
    expect(ev('first(users).team.name')).toBe('Ops');
  });

  it('give undefined for empty, undefined and null', () => {
    for (const value of ['empty', 'item', 'nothing']) {
      expect({ value, first: ev(`first(${value})`), last: ev(`last(${value})`) }).toEqual({ value, first: undefined, last: undefined });
    }
  });

  it('refuse non-arrays', () => {
    expect(message('first(text)')).toContain('first() expects an array, got string');
    expect(message('last(obj)')).toContain('last() expects an array, got object');
  });
});

describe('keys', () => {
  it('lists own keys in order', () => {
    expect(ev('keys(obj)')).toEqual(['a', 'b', 'c']);
    expect(evaluateExpression('keys(o)', { o: {} })).toEqual([]);
  });

  it('gives [] for undefined and null, and refuses arrays', () => {
    expect(ev('keys(item)')).toEqual([]);
    expect(ev('keys(nothing)')).toEqual([]);
    expect(message('keys(list)')).toContain('keys() expects an object, got array');
  });
});

describe('toString', () => {
  it('converts by the documented rules', () => {
    expect(ev("toString('x')")).toBe('x');
    expect(ev('toString(12.5)')).toBe('12.5');
    expect(ev('toString(true)')).toBe('true');
    expect(ev('toString(nothing)')).toBe('');
    expect(ev('toString(item)')).toBe('');
    expect(ev('toString(list)')).toBe('[1,2,3]');
    expect(ev('toString(obj)')).toBe('{"a":1,"b":"two","c":null}');
  });
});

describe('substring', () => {
  it('cuts like JS substring, 0-based', () => {
    expect(ev('substring(text, 1, 3)')).toBe('el');
    expect(ev('substring(text, 3, 1)')).toBe('el');
    expect(ev('substring(text, 2)')).toBe('llo');
    expect(ev('substring(text, 0, 99)')).toBe('Hello');
    expect(ev('substring(item, 0, 2)')).toBe('');
  });

  it('refuses positions that are not numbers', () => {
    expect(message("substring(text, '1')")).toContain('substring() expects the start as a number, got string');
    expect(message('substring(text, 0, item)')).toContain('substring() expects the end as a number, got undefined');
  });
});

describe('omit and pick', () => {
  it('omit copies without the given keys and leaves the original alone', () => {
    expect(ev("omit(obj, 'a', 'c')")).toEqual({ b: 'two' });
    expect(ev("omit(obj, 'zzz')")).toEqual(scope.obj);
    expect(ev("omit(obj, 'zzz')")).not.toBe(scope.obj);
    expect(scope.obj).toEqual({ a: 1, b: 'two', c: null });
  });

  it('pick copies only the given keys that exist', () => {
    expect(ev("pick(obj, 'a', 'c', 'zzz')")).toEqual({ a: 1, c: null });
    expect(Object.keys(ev("pick(obj, 'zzz')") as object)).toEqual([]);
  });

  it('give {} for undefined and null', () => {
    expect(ev("omit(item, 'a')")).toEqual({});
    expect(ev("pick(nothing, 'a')")).toEqual({});
  });

  it('refuse non-objects and keys that are not text', () => {
    expect(message("omit(list, 'a')")).toContain('omit() expects an object, got array');
    expect(message("pick(text, 'a')")).toContain('pick() expects an object, got string');
    expect(message('omit(obj, 1)')).toContain('omit() expects each key as text, got number');
  });
});

describe('toCollection', () => {
  it('turns key/value elements into an object, skipping elements without a key', () => {
    const result = ev("toCollection(pairs, 'key', 'value')") as Record<string, unknown>;
    expect(result).toEqual({ a: 1, b: 'x', 7: true, c: undefined });
    expect(Object.keys(result)).toEqual(['7', 'a', 'b', 'c']);
    expect(Object.hasOwn(result, 'c')).toBe(true);
  });

  it('gives {} for undefined and null', () => {
    expect(ev("toCollection(item, 'key', 'value')")).toEqual({});
    expect(ev("toCollection(nothing, 'key', 'value')")).toEqual({});
  });

  it('adds a "__proto__" key as a plain key, without touching any prototype', () => {
    const result = evaluateExpression("toCollection(pairs, 'key', 'value')", { pairs: [{ key: '__proto__', value: { polluted: true } }] }) as Record<
      string,
      unknown
    >;
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses a non-array and object keys', () => {
    expect(message("toCollection(obj, 'key', 'value')")).toContain('toCollection() expects an array, got object');
    expect(imlErrorOf(() => evaluateExpression("toCollection(p, 'key', 'value')", { p: [{ key: {}, value: 1 }] })).message).toContain(
      'toCollection() needs each "key" to be text, got object',
    );
  });
});

describe('parseNumber', () => {
  it('parses decimal text', () => {
    expect(ev("parseNumber('42', '.')")).toBe(42);
    expect(ev("parseNumber(' 3.5 ', '.')")).toBe(3.5);
    expect(ev("parseNumber('-2', '.')")).toBe(-2);
    expect(ev("parseNumber('.5', '.')")).toBe(0.5);
    expect(ev("parseNumber(7, '.')")).toBe(7);
  });

  // The page's own example: parseNumber(1 756,456; ,) with a space grouping and a decimal comma.
  it("reads the page's example: 1 756,456 with ',' is 1756.456", () => {
    expect(ev("parseNumber('1 756,456', ',')")).toBe(1756.456);
    expect(ev("parseNumber('1.5', ',')")).toBeUndefined();
    expect(message("parseNumber('1', ';')")).toContain('"." or ","');
  });

  it('gives undefined for anything that is not a number', () => {
    for (const source of ["'abc'", "''", "'12abc'", "'1e3'", "'0x10'", "'Infinity'", 'item', 'nothing', 'true', 'list']) {
      expect({ source, value: ev(`parseNumber(${source}, '.')`) }).toEqual({ source, value: undefined });
    }
  });
});

describe('arity', () => {
  it.each([
    ['if(true, 1)', 'Function "if" expects 3 arguments, got 2'],
    ["ifempty('a')", 'Function "ifempty" expects 2 arguments, got 1'],
    ["contains('a', 'b', 'c')", 'Function "contains" expects 2 arguments, got 3'],
    ['lower()', 'Function "lower" expects 1 argument, got 0'],
    ["upper('a', 'b')", 'Function "upper" expects 1 argument, got 2'],
    ['trim()', 'Function "trim" expects 1 argument, got 0'],
    ['length(list, 1)', 'Function "length" expects 1 argument, got 2'],
    ['join(list)', 'Function "join" expects 2 arguments, got 1'],
    ['map(list)', 'Function "map" expects 2 arguments, got 1'],
    ['first()', 'Function "first" expects 1 argument, got 0'],
    ['last(list, list)', 'Function "last" expects 1 argument, got 2'],
    ['keys()', 'Function "keys" expects 1 argument, got 0'],
    ['toString()', 'Function "toString" expects 1 argument, got 0'],
    ['substring(text)', 'Function "substring" expects 2 to 3 arguments, got 1'],
    ['substring(text, 1, 2, 3)', 'Function "substring" expects 2 to 3 arguments, got 4'],
    ['omit(obj)', 'Function "omit" expects at least 2 arguments, got 1'],
    ['pick(obj)', 'Function "pick" expects at least 2 arguments, got 1'],
    ["toCollection(pairs, 'key')", 'Function "toCollection" expects 3 arguments, got 2'],
    ["parseNumber('1')", 'Function "parseNumber" expects 2 arguments, got 1'],
  ])('%s is refused', (source, expected) => {
    expect(message(source)).toBe(`${expected} at column 1 in "{{${source}}}"`);
  });
});

describe('the functions the generator needs beyond the first subset', () => {
  // https://help.make.com/text-and-binary-functions: "replace (text; search string; replacement
  // string): Replaces the search string with the new string. replace(Hello World; Hello; Hi) = Hi
  // World"; a pattern in /.../ with the flags g, i, m may be the search. Every match with g, as the
  // page shows; a plain text's count is not said, modelled as the first (JavaScript's replace).
  it('replace: the documented example; /.../g every match; a plain text its first occurrence', () => {
    expect(evaluateExpression("replace('Hello World', 'Hello', 'Hi')", {})).toBe('Hi World');
    expect(evaluateExpression("replace('+1 (415) 555-0199', /[ \\-().]/g, '')", {})).toBe('+14155550199');
    expect(evaluateExpression("replace('a1 b22', /[0-9]+/, 'X')", {})).toBe('aX b22');
    expect(evaluateExpression("replace('AbA', /a/gi, 'x')", {})).toBe('xbx');
    expect(evaluateExpression("replace('+1 (415) 555-0199', ' ', '')", {})).toBe('+1(415) 555-0199');
    expect(evaluateExpression('10 / 2 / 5', {})).toBe(1);
    expect(() => evaluateExpression("replace('a', /a/x, 'b')", {})).toThrow(/only the flags g, i and m/);
    expect(evaluateExpression("replace(x, '-', '')", { x: undefined })).toBe('');
    expect(() => evaluateExpression("replace('a', '', 'b')", {})).toThrow(/replace\(\) needs a search text that is not empty/);
    expect(() => evaluateExpression("replace('a', 'b')", {})).toThrow(ImlError);
  });

  it('add and emptyarray: a new list with the values appended, the input left as it was', () => {
    const list = [1];
    expect(evaluateExpression('add(list, 2, 3)', { list })).toEqual([1, 2, 3]);
    expect(list).toEqual([1]);
    expect(evaluateExpression('add(emptyarray, body)', { body: { id: 'x' } })).toEqual([{ id: 'x' }]);
    expect(evaluateExpression('length(emptyarray)', {})).toBe(0);
    expect(evaluateExpression('add(nothing, 1)', { nothing: undefined })).toEqual([1]);
  });
});

// Make: "encodeURL (text): Encodes special characters in a text to a valid URL address"
// (https://help.make.com/text-and-binary-functions). Modelled as encodeURIComponent.
describe('encodeURL', () => {
  it('percent-encodes what a URL component cannot hold, every literal % included', () => {
    expect(evaluateExpression("encodeURL('Automate your workflow')", {})).toBe('Automate%20your%20workflow');
    expect(evaluateExpression('encodeURL(k)', { k: 'a"b\\c/d?e=f&g%h+i~' })).toBe(encodeURIComponent('a"b\\c/d?e=f&g%h+i~'));
    expect(evaluateExpression('encodeURL(k)', { k: 'é\n' })).toBe('%C3%A9%0A');
    expect(evaluateExpression('encodeURL(k)', { k: '\ud800' })).toBe('%EF%BF%BD');
  });
});
