import { ImlError } from './errors.ts';
import { evaluate, type ImlScope } from './evaluate.ts';
import { splitInterpolation } from './interpolation.ts';
import { parse } from './parser.ts';
import { isPlainObject, kindOf, setProperty, toText, type PlainObject } from './values.ts';

/**
 * Renders the JSON templates Make keeps in *.iml.json files. Only the template is
 * rendered: values that expressions return are data and are never rendered again, so a
 * "{{…}}" inside an API response stays text.
 */

/** The key that spreads an object into its surrounding object, written exactly like this. */
export const SPREAD_KEY = '{{...}}';

type Path = readonly (string | number)[];

/** Where in the template, appended to messages: " (at response.output.names)". */
function describePath(path: Path): string {
  if (path.length === 0) return ' (at the template root)';
  return ` (at ${path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('')})`;
}

/** Refuses object keys we cannot handle: anything with '{{' that is not exactly the spread key. */
function checkKey(key: string, path: Path): void {
  if (key === SPREAD_KEY || !key.includes('{{')) return;
  const hint = key.replace(/\s/g, '') === SPREAD_KEY ? ` (write the spread key exactly as "${SPREAD_KEY}")` : '';
  throw new ImlError(`Dynamic object keys are not supported: key ${JSON.stringify(key)}${hint}${describePath(path)}`);
}

function refuseValue(value: unknown, path: Path): never {
  throw new ImlError(`Unsupported template value of type ${kindOf(value)}${describePath(path)}`);
}

function renderString(text: string, scope: ImlScope, path: Path): unknown {
  try {
    const parts = splitInterpolation(text);
    const only = parts.length === 1 ? parts[0] : undefined;
    // Exactly one expression and nothing else: the typed value, not its text.
    if (only?.kind === 'expression') return evaluate(parse(only.source), scope, only.source);
    if (!parts.some((part) => part.kind === 'expression')) return text;
    return parts.map((part) => (part.kind === 'text' ? part.text : toText(evaluate(parse(part.source), scope, part.source)))).join('');
  } catch (error) {
    if (error instanceof ImlError) throw new ImlError(`${error.message}${describePath(path)}`, { cause: error });
    throw error;
  }
}

function renderObject(template: PlainObject, scope: ImlScope, path: Path): PlainObject {
  const result: PlainObject = {};
  // Assigned in template order, so a later key overwrites what came before it: explicit
  // keys after the spread win over it, spread keys win over the ones before it.
  for (const [key, value] of Object.entries(template)) {
    checkKey(key, path);
    const rendered = renderValue(value, scope, [...path, key]);
    if (key !== SPREAD_KEY) {
      setProperty(result, key, rendered);
      continue;
    }
    if (rendered === undefined || rendered === null) continue;
    if (!isPlainObject(rendered)) {
      throw new ImlError(`The spread "${SPREAD_KEY}" needs an object (or null/undefined), got ${kindOf(rendered)}${describePath(path)}`);
    }
    for (const [spreadKey, spreadValue] of Object.entries(rendered)) setProperty(result, spreadKey, spreadValue);
  }
  // Undefined means "absent", as JSON serialisation would have it; dropped after merging
  // so a later undefined still removes an earlier value.
  for (const key of Object.keys(result)) if (result[key] === undefined) delete result[key];
  return result;
}

function renderValue(template: unknown, scope: ImlScope, path: Path): unknown {
  if (typeof template === 'string') return renderString(template, scope, path);
  if (template === null || template === undefined || typeof template === 'number' || typeof template === 'boolean') return template;
  if (Array.isArray(template)) return template.map((element, i) => renderValue(element, scope, [...path, i]));
  if (isPlainObject(template)) return renderObject(template, scope, path);
  return refuseValue(template, path);
}

export function renderTemplate(template: unknown, scope: ImlScope): unknown {
  return renderValue(template, scope, []);
}

/**
 * Every expression source in a template, in document order, as written between the braces.
 * The spread key is structure, not an expression, and is not listed; dynamic keys and
 * unterminated '{{' are refused as renderTemplate would refuse them.
 */
export function expressionsIn(template: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: Path): void => {
    if (typeof value === 'string') {
      for (const part of splitInterpolation(value)) if (part.kind === 'expression') found.push(part.source);
    } else if (Array.isArray(value)) {
      value.forEach((element, i) => {
        visit(element, [...path, i]);
      });
    } else if (isPlainObject(value)) {
      for (const [key, element] of Object.entries(value)) {
        checkKey(key, path);
        visit(element, [...path, key]);
      }
    } else if (!(value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')) {
      refuseValue(value, path);
    }
  };
  visit(template, []);
  return found;
}
