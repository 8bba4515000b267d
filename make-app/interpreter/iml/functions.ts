import { ValueProblem } from './errors.ts';
import { conditionTruth, isEmpty, isPlainObject, kindOf, readPath, readProperty, setProperty, toText, type PlainObject } from './values.ts';

/**
 * The functions of the subset, and nothing else. The parser looks names and argument
 * counts up here, so an unknown function or a wrong count is refused before anything is
 * evaluated (even in a branch that would never run).
 */

export interface Arity {
  readonly min: number;
  /** Infinity for omit/pick, which take any number of keys. */
  readonly max: number;
}

export type Thunk = () => unknown;

export type FunctionSpec =
  | { readonly arity: Arity; readonly lazy: false; readonly apply: (args: readonly unknown[]) => unknown }
  /** Lazy functions get thunks so that only the branch they choose is evaluated. */
  | { readonly arity: Arity; readonly lazy: true; readonly apply: (args: readonly Thunk[]) => unknown };

const exactly = (n: number): Arity => ({ min: n, max: n });

function eager(arity: Arity, apply: (args: readonly unknown[]) => unknown): FunctionSpec {
  return { arity, lazy: false, apply };
}

function lazy(arity: Arity, apply: (args: readonly Thunk[]) => unknown): FunctionSpec {
  return { arity, lazy: true, apply };
}

/** Arity is checked by the parser, so a missing thunk is a bug here, not a user error. */
function thunk(args: readonly Thunk[], index: number): Thunk {
  const found = args[index];
  if (!found) throw new Error(`internal: argument ${index + 1} missing`);
  return found;
}

// Argument readers. Each names the function in its message; the evaluator adds where.

/** Text argument: null/undefined → '', numbers and booleans as their text; arrays/objects refused. */
function text(fn: string, value: unknown): string {
  if (typeof value === 'object' && value !== null) throw new ValueProblem(`${fn}() expects text, got ${kindOf(value)}`);
  return toText(value);
}

function string(fn: string, what: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValueProblem(`${fn}() expects ${what} as text, got ${kindOf(value)}`);
  return value;
}

function number(fn: string, what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValueProblem(`${fn}() expects ${what} as a number, got ${kindOf(value)}`);
  return value;
}

/** Array argument: null/undefined → undefined (each function decides what that gives); other kinds refused. */
function array(fn: string, value: unknown): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ValueProblem(`${fn}() expects an array, got ${kindOf(value)}`);
  return value;
}

/** Object argument: null/undefined → {}; arrays and scalars refused. */
function object(fn: string, value: unknown): PlainObject {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new ValueProblem(`${fn}() expects an object, got ${kindOf(value)}`);
  return value;
}

function keyList(fn: string, values: readonly unknown[]): Set<string> {
  return new Set(values.map((key) => string(fn, 'each key', key)));
}

function copyWhere(source: PlainObject, keep: (key: string) => boolean): PlainObject {
  const result: PlainObject = {};
  for (const key of Object.keys(source)) if (keep(key)) setProperty(result, key, source[key]);
  return result;
}

const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  if: lazy(exactly(3), (args) => (conditionTruth(thunk(args, 0)()) ? thunk(args, 1)() : thunk(args, 2)())),

  ifempty: lazy(exactly(2), (args) => {
    const value = thunk(args, 0)();
    // help.make.com/general-functions names no array among the empty values: the generator never asks.
    if (Array.isArray(value) && value.length === 0)
      throw new ValueProblem('Make does not document whether ifempty() takes an empty array for empty: test its length instead');
    return isEmpty(value) ? thunk(args, 1)() : value;
  }),

  contains: eager(exactly(2), ([haystack, needle]) => {
    if (haystack === undefined || haystack === null) return false;
    if (Array.isArray(haystack)) return haystack.some((element) => element === needle);
    if (typeof haystack !== 'string') throw new ValueProblem(`contains() expects text or an array, got ${kindOf(haystack)}`);
    // Searching text for nothing would always match; treat a missing needle as "not contained".
    if (needle === undefined || needle === null) return false;
    return haystack.includes(text('contains', needle));
  }),

  /**
   * Make's `replace` (help.make.com, text functions): a pattern `/.../g` replaces every match, as
   * its page shows. For a plain text the page gives one example with one occurrence and says no
   * more; modelled as the first occurrence only (what JavaScript's replace does), and the
   * generator uses plain texts only where either reading keeps the key out (iml-key.ts).
   */
  replace: eager(exactly(3), ([value, search, replacement]) => {
    const source = text('replace', value);
    const by = string('replace', 'the replacement', replacement);
    if (search instanceof RegExp) return source.replace(search, by);
    const find = string('replace', 'the search', search);
    if (find === '') throw new ValueProblem('replace() needs a search text that is not empty');
    const at = source.indexOf(find);
    return at < 0 ? source : source.slice(0, at) + by + source.slice(at + find.length);
  }),
  /**
   * Percent-encodes a text for a URL component, as encodeURIComponent (Make: "Encodes special
   * characters in a text to a valid URL address", help.make.com/text-and-binary-functions).
   * A broken character (an unpaired surrogate, which no typed text holds) is encoded as U+FFFD
   * instead of failing: the doc names no failure.
   */
  encodeURL: eager(exactly(1), ([value]) => encodeURIComponent(text('encodeURL', value).toWellFormed())),
  /**
   * Decodes percent-escapes (Make: "Decodes special characters in URL to text",
   * help.make.com/text-and-binary-functions). A broken escape is not on the page: modelled as the
   * text kept as it came, the reading the generator relies on for a `Location` header (untrusted).
   */
  decodeURL: eager(exactly(1), ([value]) => {
    const source = text('decodeURL', value);
    try {
      return decodeURIComponent(source);
    } catch {
      return source;
    }
  }),
  /** Make: "Splits a string into an array of strings" at each separator (help.make.com/text-and-binary-functions). */
  split: eager(exactly(2), ([value, separator]) => {
    const by = string('split', 'the separator', separator);
    if (by === '') throw new ValueProblem('split() needs a separator that is not empty');
    return text('split', value).split(by);
  }),
  lower: eager(exactly(1), ([value]) => text('lower', value).toLowerCase()),
  upper: eager(exactly(1), ([value]) => text('upper', value).toUpperCase()),
  trim: eager(exactly(1), ([value]) => text('trim', value).trim()),

  length: eager(exactly(1), ([value]) => {
    if (value === undefined || value === null) return 0;
    if (typeof value === 'string' || Array.isArray(value)) return value.length;
    throw new ValueProblem(`length() expects text or an array, got ${kindOf(value)}`);
  }),

  join: eager(exactly(2), ([list, separator]) => {
    const elements = array('join', list);
    const glue = string('join', 'the separator', separator);
    if (!elements) return '';
    return elements
      .filter((element) => !(element === undefined || element === null || element === ''))
      .map(toText)
      .join(glue);
  }),

  map: eager(exactly(2), ([list, key]) => {
    const elements = array('map', list);
    const path = string('map', 'the key', key);
    if (!elements) return [];
    // Elements without the key contribute nothing (rather than an undefined hole).
    return elements.map((element) => readPath(element, path)).filter((value) => value !== undefined);
  }),

  /** A new list: the given one (none = empty) with the values appended; Make's way to build a list. */
  add: eager({ min: 2, max: Infinity }, ([list, ...values]) => [...(array('add', list) ?? []), ...values]),
  first: eager(exactly(1), ([list]) => array('first', list)?.[0]),
  last: eager(exactly(1), ([list]) => array('last', list)?.at(-1)),

  keys: eager(exactly(1), ([value]) => Object.keys(object('keys', value))),

  toString: eager(exactly(1), ([value]) => toText(value)),

  substring: eager({ min: 2, max: 3 }, (args) => {
    const source = text('substring', args[0]);
    const start = number('substring', 'the start', args[1]);
    return args.length === 3 ? source.substring(start, number('substring', 'the end', args[2])) : source.substring(start);
  }),

  omit: eager({ min: 2, max: Infinity }, ([value, ...keys]) => {
    const source = object('omit', value);
    const drop = keyList('omit', keys);
    return copyWhere(source, (key) => !drop.has(key));
  }),

  pick: eager({ min: 2, max: Infinity }, ([value, ...keys]) => {
    const source = object('pick', value);
    const keep = keyList('pick', keys);
    return copyWhere(source, (key) => keep.has(key));
  }),

  toCollection: eager(exactly(3), ([list, keyName, valueName]) => {
    const elements = array('toCollection', list) ?? [];
    const keyField = string('toCollection', 'the key name', keyName);
    const valueField = string('toCollection', 'the value name', valueName);
    const result: PlainObject = {};
    for (const element of elements) {
      const key = readProperty(element, keyField);
      if (key === undefined || key === null) continue;
      if (typeof key === 'object') throw new ValueProblem(`toCollection() needs each "${keyField}" to be text, got ${kindOf(key)}`);
      setProperty(result, toText(key), readProperty(element, valueField));
    }
    return result;
  }),

  /**
   * help.make.com/math-functions: "parseNumber (number; decimal separator): Parses a string with a
   * number and returns the number. For example, parseNumber(1 756,456; ,)". Spaces between digits
   * are grouping; the separator given is the decimal point. Anything else is no number.
   */
  parseNumber: eager(exactly(2), ([value, separator]) => {
    const decimal = string('parseNumber', 'the decimal separator', separator);
    if (decimal !== '.' && decimal !== ',') throw new ValueProblem('parseNumber() takes "." or "," as the decimal separator');
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    if (typeof value !== 'string') return undefined;
    const plain = value.trim().replace(/(?<=\d) (?=\d)/g, '');
    const dotted = decimal === ',' ? (plain.includes('.') ? '' : plain.replace(',', '.')) : plain;
    // Plain decimal notation only: no exponents, hex or 'Infinity'.
    return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(dotted) ? Number(dotted) : undefined;
  }),
};

export function lookupFunction(name: string): FunctionSpec | undefined {
  return Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
}

export function describeArity({ min, max }: Arity): string {
  const plural = (n: number) => `${n} argument${n === 1 ? '' : 's'}`;
  if (min === max) return plural(min);
  if (max === Infinity) return `at least ${plural(min)}`;
  return `${min} to ${max} arguments`;
}

/** Names of every supported function, for messages and tests. */
export const functionNames: readonly string[] = Object.keys(FUNCTIONS);
