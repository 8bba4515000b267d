import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { expressionsIn } from '../interpreter/iml/index.ts';
import { MANIFEST, type Manifest } from '../manifest.ts';

/**
 * What Make's review asks of an app beyond its schemas (developers.make.com/custom-apps-documentation:
 * Best practices › Names, labels & descriptions, Modules, Search modules, Error handling,
 * Processing of input and output parameters; App review). Each finding says where and what
 * to fix, so a regression fails `npm run make:check-schemas` (and with it `.ci/run`).
 */
export interface Finding {
  rule: string;
  where: string;
  problem: string;
}

/** The verbs a module label may start with (Names, labels & descriptions: "a verb first"). */
const VERBS = new Set(['Watch', 'Create', 'Update', 'Get', 'Search', 'List', 'Remove', 'Delete', 'Change', 'Make', 'Add', 'Find']);
/** Words that keep their capitals inside a sentence-case label. */
const PROPER = new Set(['API', 'URL', 'ID', 'Pagerly']);
/** The universal module, as Make names it in every app. */
export const UNIVERSAL = { label: 'Make an API call', description: 'Performs an arbitrary authorized API call.' } as const;
const LIMIT = '{{parameters.limit}}';
const STATUS_FIRST = '[{{statusCode}}]';

// biome-ignore lint/suspicious/noExplicitAny: the generated files are read as loose JSON, each rule checks the shape it needs
type Json = Record<string, any>;

function labelProblems(label: string): string[] {
  const words = label.split(/\s+/);
  const problems: string[] = [];
  if (!VERBS.has(words[0] ?? '')) problems.push(`"${label}" does not start with a verb (${[...VERBS].join(', ')})`);
  const capitalised = words.slice(1).filter((word) => /^[A-Z]/.test(word) && !PROPER.has(word));
  if (capitalised.length) problems.push(`"${label}" is not in sentence case (${capitalised.join(', ')})`);
  if (/\bor (create|update|replace)\b/i.test(label)) problems.push(`"${label}" combines create and update: split it into two modules`);
  return problems;
}

/** `ifempty(x, undefined)` at any depth of one expression (parentheses matched, strings skipped). */
function ifemptyUndefined(expression: string): boolean {
  for (let start = expression.indexOf('ifempty('); start >= 0; start = expression.indexOf('ifempty(', start + 1)) {
    let depth = 0;
    let lastComma = -1;
    for (let i = start + 'ifempty'.length; i < expression.length; i += 1) {
      const c = expression[i]!;
      if (c === "'" || c === '"') i = skipString(expression, i);
      else if (c === '(') depth += 1;
      else if (c === ',' && depth === 1) lastComma = i;
      else if (c === ')') {
        depth -= 1;
        if (depth !== 0) continue;
        if (lastComma >= 0 && expression.slice(lastComma + 1, i).trim() === 'undefined') return true;
        break;
      }
    }
  }
  return false;
}

/** The index of the quote that closes the string opening at `start`. */
function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === text[start]) return i;
  }
  return text.length;
}

/** A string literal that escapes its own quote (`'it\'s'`): Make's review asks for none. */
function escapedQuote(expression: string): boolean {
  for (let i = 0; i < expression.length; i += 1) {
    const quote = expression[i];
    if (quote !== "'" && quote !== '"') continue;
    for (i += 1; i < expression.length && expression[i] !== quote; i += 1) {
      if (expression[i] === '\\') {
        if (expression[i + 1] === quote) return true;
        i += 1;
      }
    }
  }
  return false;
}

/** Every `response.error` / `valid` message of one communication (or the Base). */
function messages(communication: Json | undefined): [string, unknown][] {
  const response = (communication?.response ?? {}) as Json;
  const found: [string, unknown][] = [];
  const error = (response.error ?? {}) as Json;
  if (error.message !== undefined) found.push(['error.message', error.message]);
  for (const [status, entry] of Object.entries(error)) if (/^\d{3}$/.test(status)) found.push([`error.${status}.message`, (entry as Json).message]);
  if (response.valid && typeof response.valid === 'object') found.push(['valid.message', response.valid.message]);
  return found;
}

/** Output values computed as `toString(...)` of something: Make asks for explicit mapping. */
function stringifiedOutputs(output: unknown, path = 'output'): string[] {
  if (typeof output === 'string') return /^\{\{\s*toString\(/.test(output) ? [path] : [];
  if (output && typeof output === 'object') return Object.entries(output).flatMap(([key, value]) => stringifiedOutputs(value, `${path}.${key}`));
  return [];
}

export function conventionFindings(files: ReadonlyMap<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: string, where: string, problem: string) => findings.push({ rule, where, problem });
  const manifest = files.get(MANIFEST) as Manifest;
  const read = (path: string | undefined) => (path === undefined ? undefined : (files.get(path) as Json | undefined));

  for (const [id, module] of Object.entries(manifest.components.module) as [string, Json][]) {
    const where = `module ${id}`;
    for (const problem of labelProblems(module.label)) add('label', where, problem);
    const communication = read(module.codeFiles.communication);
    const mappable = (read(module.codeFiles.mappableParams) ?? []) as unknown as Json[];
    if (module.moduleType === 'universal') {
      if (module.label !== UNIVERSAL.label) add('universal module', where, `label "${module.label}", not "${UNIVERSAL.label}"`);
      if (module.description !== UNIVERSAL.description) add('universal module', where, `description "${module.description}", not "${UNIVERSAL.description}"`);
      for (const name of ['qs', 'headers'])
        if (mappable.find((p) => p.name === name)?.type !== 'array') add('universal module', where, `${name} is not an array field of its own`);
      if (!/relative to the base URL/.test(mappable.find((p) => p.name === 'url')?.help ?? ''))
        add('universal module', where, 'the URL help does not say it is relative to the base URL');
    }
    if (module.moduleType === 'search') {
      if (communication?.response?.limit !== LIMIT) add('search limit', where, `response.limit is not "${LIMIT}"`);
      if (!mappable.some((p) => p.name === 'limit')) add('search limit', where, 'has no limit parameter');
    }
    for (const path of stringifiedOutputs(communication?.response?.output)) add('explicit output', where, `${path} is toString of a value: map its fields`);
    for (const param of mappable) {
      const mapped = param.type === 'select' && (typeof param.options === 'string' || String(param.help ?? '').includes(CUSTOM_VALUE_NOTE));
      if (param.mode === 'edit' && !mapped) add('mode edit', `${where} parameter ${param.name}`, 'mode "edit" on a field not meant for mapping');
    }
  }
  for (const [id, rpc] of Object.entries(manifest.components.rpc) as [string, Json][])
    for (const problem of labelProblems(rpc.label)) add('label', `rpc ${id}`, problem);
  for (const [id, webhook] of Object.entries(manifest.components.webhook) as [string, Json][]) {
    for (const problem of labelProblems(webhook.label)) add('label', `webhook ${id}`, problem);
    for (const path of stringifiedOutputs(read(webhook.codeFiles.communication)?.output))
      add('explicit output', `webhook ${id}`, `${path} is toString of a value: map its fields`);
  }

  for (const [path, content] of files) {
    if (path === MANIFEST || path.endsWith('.md')) continue;
    if (/(base|communication|attach|detach)\.iml\.json$/.test(path)) {
      for (const [name, message] of messages(content as Json)) {
        if (typeof message !== 'string' || !message.startsWith(STATUS_FIRST)) add('status first', `${path} ${name}`, `does not start with ${STATUS_FIRST}`);
      }
    }
    for (const expression of expressionsIn(content)) {
      if (ifemptyUndefined(expression))
        add('empty values', path, `ifempty(…, undefined) in {{${expression.slice(0, 80)}}}: Make processes empty values itself`);
      if (escapedQuote(expression)) add('no escaped quotes', path, `a string escapes its own quote in {{${expression.slice(0, 80)}}}`);
    }
  }
  return findings;
}
