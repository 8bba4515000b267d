import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../../../make-app/generator/generate.ts';
import type { Expr } from '../../../../make-app/interpreter/iml/ast.ts';
import { evaluateExpression, expressionsIn } from '../../../../make-app/interpreter/iml/index.ts';
import { parse } from '../../../../make-app/interpreter/iml/parser.ts';

/**
 * Every IML function and operator the generated app uses, held to the page of Make's help that
 * documents it and to that page's own examples (written in IML syntax: ',' for ';', quoted text).
 * No public IML engine exists, so these pages are the reference; where they are silent the
 * evaluator refuses (functions.test.ts, expressions.test.ts) and the generator does not depend.
 */
const HELP = 'https://help.make.com';
const IML = 'https://developers.make.com/custom-apps-documentation/block-elements/iml';
type Example = [source: string, expected: unknown, scope?: Record<string, unknown>];

const FUNCTIONS: Record<string, { page: string; examples: Example[] }> = {
  if: {
    page: `${HELP}/general-functions`,
    examples: [
      ["if(1 == 1, 'A', 'B')", 'A'],
      ["if(1 == 2, 'A', 'B')", 'B'],
    ],
  },
  ifempty: {
    page: `${HELP}/general-functions and ${IML} ("returns a second argument when the first argument is either not defined, null, or an empty string")`,
    examples: [
      ["ifempty('A', 'B')", 'A'],
      ["ifempty(unknown, 'B')", 'B', { unknown: undefined }],
      ["ifempty('', 'B')", 'B'],
      ["ifempty(nothing, 'B')", 'B', { nothing: null }],
    ],
  },
  contains: {
    page: `${HELP}/text-and-binary-functions`,
    examples: [
      ["contains('Hello World', 'Hello')", true],
      ["contains('Hello World', 'Bye')", false],
    ],
  },
  replace: {
    page: `${HELP}/text-and-binary-functions`,
    examples: [
      ["replace('Hello World', 'Hello', 'Hi')", 'Hi World'],
      ["replace('All these numbers 187 23 1 9565 will be replaced with X', /\\d+/g, 'X')", 'All these numbers X X X X will be replaced with X'],
      ["replace('Phone number is 777111222', /\\d+/g, '+420$&')", 'Phone number is +420777111222'],
    ],
  },
  length: {
    page: `${HELP}/text-and-binary-functions and ${HELP}/array-functions`,
    examples: [
      ["length('hello')", 5],
      ['length(list)', 3, { list: [1, 2, 3] }],
    ],
  },
  lower: { page: `${HELP}/text-and-binary-functions`, examples: [["lower('Hello')", 'hello']] },
  trim: { page: `${HELP}/text-and-binary-functions ("Removes space characters at the start or end of the text")`, examples: [["trim('  Make ')", 'Make']] },
  substring: {
    page: `${HELP}/text-and-binary-functions`,
    examples: [
      ["substring('Hello', 0, 3)", 'Hel'],
      ["substring('Hello', 1, 3)", 'el'],
    ],
  },
  encodeURL: {
    page: `${HELP}/text-and-binary-functions (decodeURL's example read backwards)`,
    examples: [["encodeURL('Automate your workflow')", 'Automate%20your%20workflow']],
  },
  decodeURL: {
    page: `${HELP}/text-and-binary-functions ("Decodes special characters in URL to text")`,
    examples: [["decodeURL('Automate%20your%20workflow')", 'Automate your workflow']],
  },
  split: {
    page: `${HELP}/text-and-binary-functions ("Splits a string into an array of strings", split( John, George, Paul ; , ))`,
    examples: [["split('John,George,Paul', ',')", ['John', 'George', 'Paul']]],
  },
  toString: {
    page: `${HELP}/text-and-binary-functions ("Converts any value to a string")`,
    examples: [
      ['toString(5)', '5'],
      ["toString('Make')", 'Make'],
    ] as Example[],
  },
  join: {
    page: `${HELP}/array-functions ("Concatenates all the items of an array into a string, using a specified separator")`,
    examples: [["join(list, ', ')", '1, 2, 3', { list: [1, 2, 3] }]],
  },
  map: {
    page: `${HELP}/array-functions ("map( Emails[] ; email ) Returns a primitive array with emails")`,
    examples: [["map(emails, 'email')", ['a@x.example', 'b@x.example'], { emails: [{ email: 'a@x.example' }, { email: 'b@x.example' }] }]],
  },
  first: {
    page: `${HELP}/array-functions ("Returns the first element of an array")`,
    examples: [['first(list)', 'a', { list: ['a', 'b', 'c'] }]],
  },
  last: {
    page: `${HELP}/array-functions ("Returns the last element of an array")`,
    examples: [['last(list)', 'c', { list: ['a', 'b', 'c'] }]],
  },
  add: {
    page: `${HELP}/array-functions ("Adds values specified in parameters to an array and returns that array")`,
    examples: [['add(list, 3, 4)', [1, 2, 3, 4], { list: [1, 2] }]],
  },
  toCollection: {
    page: `${HELP}/array-functions ("Converts an array containing objects with key-value pairs into a collection")`,
    examples: [
      [
        "toCollection(pairs, 'key', 'value')",
        { a: '1', b: '2' },
        {
          pairs: [
            { key: 'a', value: '1' },
            { key: 'b', value: '2' },
          ],
        },
      ],
    ],
  },
  parseNumber: {
    page: `${HELP}/math-functions ("For example, parseNumber(1 756,456;,)")`,
    examples: [
      ["parseNumber('1 756,456', ',')", 1756.456],
      ["parseNumber('30', '.')", 30],
    ],
  },
};

const OPERATORS: Record<string, { page: string; examples: Example[] }> = {
  '+': {
    page: `${IML} (algebraic operators; "{{'Hello, ' + item.name}}")`,
    examples: [
      ["'Hello, ' + item.name", 'Hello, Ada', { item: { name: 'Ada' } }],
      ['1 + 2', 3],
    ],
  },
  '-': { page: `${IML} (algebraic operators)`, examples: [['10 - 8', 2]] },
  '==': {
    page: `${IML} ("All equality operations are strict")`,
    examples: [
      ['1 == 1', true],
      ["1 == '1'", false],
    ],
  },
  '!=': { page: `${IML} (same as !==)`, examples: [["1 != '1'", true]] },
  '<': { page: `${IML} (relational operators)`, examples: [['1 < 2', true]] },
  '<=': { page: `${IML} (relational operators)`, examples: [['2 <= 2', true]] },
  '>': { page: `${IML} (relational operators)`, examples: [['2 > 1', true]] },
  '>=': { page: `${IML} (relational operators)`, examples: [['1 >= 2', false]] },
  '&&': { page: `${IML} (logical operators)`, examples: [['true && false', false]] },
  '||': { page: `${IML} (logical operators)`, examples: [['false || true', true]] },
  '!': { page: `${IML} (logical operators)`, examples: [['!false', true]] },
  '[n]': { page: `${IML} ("Unlike JavaScript, IML uses 1 to access the first" element)`, examples: [['list[1]', 'a', { list: ['a', 'b'] }]] },
};

/** The functions and operators an expression uses. */
function used(node: Expr, into: Set<string>): Set<string> {
  switch (node.kind) {
    case 'call':
      into.add(node.name);
      for (const arg of node.args) used(arg, into);
      break;
    case 'binary':
      into.add(node.operator);
      used(node.left, into);
      used(node.right, into);
      break;
    case 'not':
      into.add('!');
      used(node.operand, into);
      break;
    case 'index':
      into.add('[n]');
      used(node.object, into);
      used(node.index, into);
      break;
    case 'member':
      used(node.object, into);
      break;
  }
  return into;
}

describe("every IML function and operator the generated app uses, against Make's help", () => {
  const inApp = new Set<string>();
  for (const [path, content] of generateMakeApp()) if (path !== 'README.md') for (const source of expressionsIn(content)) used(parse(source), inApp);

  it('the app uses nothing this file does not hold to a page', () => {
    expect([...inApp].filter((name) => !(name in FUNCTIONS) && !(name in OPERATORS)).sort()).toEqual([]);
    expect(inApp.size).toBeGreaterThan(15);
  });

  for (const [name, { page, examples }] of [...Object.entries(FUNCTIONS), ...Object.entries(OPERATORS)]) {
    it(`${name}: the examples of ${page}`, () => {
      for (const [source, expected, scope] of examples) expect({ source, value: evaluateExpression(source, scope ?? {}) }).toEqual({ source, value: expected });
    });
  }
});
