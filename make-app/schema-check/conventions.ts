import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { expressionsIn } from '../interpreter/iml/index.ts';
import { MANIFEST, type Manifest } from '../manifest.ts';
import { isAcronym, PROPER_NOUNS } from '../wording.ts';

/**
 * What Make's review asks of an app beyond its schemas (developers.make.com/custom-apps-documentation:
 * Best practices › Names, labels & descriptions, Modules, Search modules, Error handling,
 * Processing of input and output parameters; App review). Each finding says where and what
 * to fix, so a regression fails `npm run make:check-schemas` (and with it `.ci/run`).
 * Each rule names its page in `PAGES`; test/make/conventions.test.ts shows each can fail.
 */
const DOCS = 'https://developers.make.com/custom-apps-documentation';
export const PAGES = {
  prerequisites: `${DOCS}/app-review/prerequisites`,
  searchModules: `${DOCS}/best-practices/modules/search-modules`,
  rpcs: `${DOCS}/best-practices/remote-procedure-calls`,
  outputLabels: `${DOCS}/best-practices/naming-conventions/output-labels`,
  inputParameters: `${DOCS}/best-practices/naming-conventions/input-parameters`,
  moduleDescriptions: `${DOCS}/best-practices/naming-conventions/modules/module-descriptions`,
  groups: `${DOCS}/best-practices/naming-conventions/groups`,
  base: `${DOCS}/best-practices/base`,
  sanitization: `${DOCS}/best-practices/base/authorization-and-sanitization`,
} as const;
export interface Finding {
  rule: string;
  where: string;
  problem: string;
}

/** The verbs a module label may start with (Names, labels & descriptions: "a verb first"). */
const VERBS = new Set(['Watch', 'Create', 'Update', 'Get', 'Search', 'List', 'Remove', 'Delete', 'Change', 'Make', 'Add', 'Find']);
/** Words that keep their capitals inside a sentence-case label: proper nouns and acronyms. */
const keepsCapital = (word: string) => PROPER_NOUNS.has(word) || isAcronym(word);
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
  const capitalised = words.slice(1).filter((word) => /^[A-Z]/.test(word) && !keepsCapital(word));
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

/** A field label in sentence case ("Capitalize only the first word and proper nouns", Output labels; "Product API key", Input parameters). */
function notSentenceCase(label: string): string[] {
  return label
    .split(/\s+/)
    .slice(1)
    .filter((word) => /^[A-Z]/.test(word) && !keepsCapital(word));
}

/** Every parameter of a list, with its path, nested `spec` included. */
function everyField(fields: unknown, path: string): [string, Json][] {
  if (!Array.isArray(fields)) return [];
  return (fields as Json[]).flatMap((field) => [[`${path} ${field.name}`, field] as [string, Json], ...everyField(field.spec, `${path} ${field.name}`)]);
}

/** Words of another platform: Make calls each part of a scenario a module, never a step or a Zap. */
const OTHER_PLATFORM = /\b(step|steps|zap|zaps)\b/i;

/** The first words a description must start with, by module (Module descriptions: one pattern per type). */
function descriptionLead(module: Json): string | undefined {
  if (module.moduleType === 'instant_trigger' || module.moduleType === 'trigger') return 'Triggers when ';
  if (module.moduleType === 'search') return 'Returns a list of ';
  if (module.moduleType === 'action' && module.actionCrud === 'read') return 'Returns information about a specific ';
  if (module.moduleType === 'action') {
    const verb = String(module.label).split(' ')[0] ?? '';
    return `${verb}s `;
  }
  return undefined;
}

/** Where a module comes in its group: triggers, then read (search, get), create, update, delete (Groups: "RCUD"). */
function rcudRank(module: Json | undefined): number {
  if (!module) return 9;
  if (module.moduleType === 'instant_trigger' || module.moduleType === 'trigger') return 0;
  if (module.moduleType === 'search') return 1;
  if (module.moduleType === 'universal') return 7;
  return { read: 2, create: 3, update: 4, delete: 5 }[module.actionCrud as string] ?? 6;
}

/** An RPC select opens in mapping mode only in Get, Update and Delete modules (Remote Procedure Calls). */
const rpcEditAllowed = (module: Json | undefined) => module?.moduleType === 'action' && ['read', 'update', 'delete'].includes(module.actionCrud);

/**
 * What a module or RPC inherits from the Base and must not say again (Best practices › Base: the
 * root URL, the authorization headers, the error handling and the sanitization are common to all
 * requests): each module keeps to what is particular to it.
 */
function repeatsBase(request: Json, base: Json): string[] {
  const problems: string[] = [];
  // Make merges temp directives (Custom apps › temp), so the Base's need no copy.
  const inherited = Object.keys((base.response?.temp ?? {}) as Json);
  for (const name of Object.keys((request.response?.temp ?? {}) as Json))
    if (inherited.includes(name)) problems.push(`sets response.temp.${name}: the Base sets it`);
  if (request.baseUrl !== undefined) problems.push('sets baseUrl');
  if (request.log !== undefined) problems.push('sets log: the Base sanitizes');
  for (const name of Object.keys((request.headers ?? {}) as Json)) if (/apikey|authorization/i.test(name)) problems.push(`sets the ${name} header`);
  if (request.response?.error !== undefined) problems.push('sets response.error: the Base handles errors');
  return problems;
}

/** The most characters the key's header expression may take: one check, not a chain (Base: the authorization once). */
const KEY_HEADER_MAX = 200;

export function conventionFindings(files: ReadonlyMap<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: string, where: string, problem: string) => findings.push({ rule, where, problem });
  const manifest = files.get(MANIFEST) as Manifest;
  const read = (path: string | undefined) => (path === undefined ? undefined : (files.get(path) as Json | undefined));
  const baseFile = read(manifest.generalCodeFiles.base ?? undefined) ?? {};

  for (const [id, module] of Object.entries(manifest.components.module) as [string, Json][]) {
    const where = `module ${id}`;
    for (const problem of labelProblems(module.label)) add('label', where, problem);
    const communication = read(module.codeFiles.communication);
    for (const request of [communication ?? {}].flat() as Json[]) for (const problem of repeatsBase(request, baseFile)) add('repeats base', where, problem);
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
      const index = mappable.findIndex((p) => p.name === 'limit');
      const limit = mappable[index];
      if (!limit) add('search limit', where, 'has no limit parameter');
      else if (limit.required || limit.default !== 10 || index !== mappable.length - 1)
        add('search limit', where, 'the limit parameter must be optional, 10 by default, and the last field');
    }
    const lead = descriptionLead(module);
    if (lead && !String(module.description).startsWith(lead)) add('description pattern', where, `the description does not start with "${lead.trim()}"`);
    for (const text of [module.label, module.description])
      if (OTHER_PLATFORM.test(text)) add('platform words', where, `"${text.match(OTHER_PLATFORM)![0]}" is not Make's word`);
    for (const [path, field] of [...everyField(mappable, 'parameter'), ...everyField(read(module.codeFiles.interface), 'output')]) {
      const words = notSentenceCase(String(field.label));
      if (words.length) add('sentence case', `${where} ${path}`, `"${field.label}" is not in sentence case (${words.join(', ')})`);
      if (OTHER_PLATFORM.test(String(field.help ?? '')))
        add('platform words', `${where} ${path}`, `"${String(field.help).match(OTHER_PLATFORM)![0]}" is not Make's word`);
      if (typeof field.options === 'string' && field.options.startsWith('rpc://') && (field.mode === 'edit') !== rpcEditAllowed(module))
        add(
          'rpc mode',
          `${where} ${path}`,
          rpcEditAllowed(module) ? 'an RPC select of a Get, Update or Delete module needs mode "edit"' : 'mode "edit" is for Get, Update and Delete modules',
        );
    }
    // The universal module's inputs are the request's parts and its outputs the answer's: no pairs.
    const paired = module.moduleType === 'universal' ? [] : ((read(module.codeFiles.interface) ?? []) as unknown as Json[]);
    const outputs = paired.filter((o) => mappable.some((p) => p.name === o.name));
    const inputOrder = mappable.filter((p) => outputs.some((o) => o.name === p.name));
    if (outputs.map((o) => o.name).join() !== inputOrder.map((p) => p.name).join())
      add(
        'output order',
        where,
        `outputs ${outputs.map((o) => o.name).join(', ')} are not in the order of the inputs (${inputOrder.map((p) => p.name).join(', ')})`,
      );
    for (const output of outputs) {
      const input = mappable.find((p) => p.name === output.name)!;
      if (input.label !== output.label)
        add('output order', `${where} output ${output.name}`, `label "${output.label}" differs from the input's "${input.label}"`);
    }
    for (const path of stringifiedOutputs(communication?.response?.output)) add('explicit output', where, `${path} is toString of a value: map its fields`);
    for (const param of mappable) {
      const mapped = param.type === 'select' && (typeof param.options === 'string' || String(param.help ?? '').includes(CUSTOM_VALUE_NOTE));
      if (param.mode === 'edit' && !mapped) add('mode edit', `${where} parameter ${param.name}`, 'mode "edit" on a field not meant for mapping');
    }
  }
  for (const [id, rpc] of Object.entries(manifest.components.rpc) as [string, Json][]) {
    for (const problem of labelProblems(rpc.label)) add('label', `rpc ${id}`, problem);
    for (const problem of repeatsBase(read(rpc.codeFiles.communication) ?? {}, baseFile)) add('repeats base', `rpc ${id}`, problem);
    const response = read(rpc.codeFiles.communication)?.response;
    if (response?.iterate !== undefined && (response.limit === undefined || response.limit === ''))
      add('rpc limit', `rpc ${id}`, 'iterates with no response.limit');
  }
  for (const [id, connection] of Object.entries(manifest.components.connection) as [string, Json][])
    for (const [path, field] of everyField(read(connection.codeFiles.params), 'parameter')) {
      const words = notSentenceCase(String(field.label));
      if (words.length) add('sentence case', `connection ${id} ${path}`, `"${field.label}" is not in sentence case (${words.join(', ')})`);
      if (!/\[[^\]]+\]\(https:\/\/[^)]+\)/.test(String(field.help ?? '')))
        add('connection hint', `connection ${id} ${path}`, 'the hint has no link to where the value is found');
    }
  const groups = (read(manifest.generalCodeFiles.groups ?? undefined) ?? []) as unknown as Json[];
  for (const group of groups) {
    const ranks = (group.modules as string[]).map((name) => rcudRank(manifest.components.module[name] as Json | undefined));
    if (ranks.some((rank, i) => i > 0 && rank < ranks[i - 1]!))
      add('group order', `group ${group.label}`, `modules ${group.modules.join(', ')} are not in trigger, read, create, update, delete order`);
  }
  for (const [id, webhook] of Object.entries(manifest.components.webhook) as [string, Json][]) {
    for (const problem of labelProblems(webhook.label)) add('label', `webhook ${id}`, problem);
    for (const [path, field] of everyField(read(webhook.codeFiles.params), 'parameter')) {
      const words = notSentenceCase(String(field.label));
      if (words.length) add('sentence case', `webhook ${id} ${path}`, `"${field.label}" is not in sentence case (${words.join(', ')})`);
      if (typeof field.options === 'string' && field.options.startsWith('rpc://') && field.mode === 'edit')
        add('rpc mode', `webhook ${id} ${path}`, 'mode "edit" is for Get, Update and Delete modules');
    }
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
    const headers = (content as Json | undefined)?.headers;
    if (headers && typeof headers === 'object')
      for (const [name, value] of Object.entries(headers as Json))
        if (/apikey|authorization/i.test(name) && String(value).length > KEY_HEADER_MAX)
          add(
            'key header',
            `${path} headers.${name}`,
            `${String(value).length} characters: check the key once, in one expression of at most ${KEY_HEADER_MAX}`,
          );
    // The key's header is sanitized wherever it is set (Base › Authorization and sanitization).
    if (headers && typeof headers === 'object')
      for (const name of Object.keys(headers as Json).filter((header) => /apikey|authorization/i.test(header))) {
        const sanitize = ((content as Json).log?.sanitize ?? []) as string[];
        if (!sanitize.some((entry) => entry.replace(/`/g, '').toLowerCase() === `request.headers.${name.toLowerCase()}`))
          add('sanitize', path, `log.sanitize does not hide request.headers.${name}`);
      }
    for (const expression of expressionsIn(content)) {
      if (ifemptyUndefined(expression))
        add('empty values', path, `ifempty(…, undefined) in {{${expression.slice(0, 80)}}}: Make processes empty values itself`);
      if (escapedQuote(expression)) add('no escaped quotes', path, `a string escapes its own quote in {{${expression.slice(0, 80)}}}`);
    }
  }
  return findings;
}
