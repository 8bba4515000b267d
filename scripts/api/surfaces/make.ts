import { createHash } from 'node:crypto';
import { generateMakeApp, type MakeAppFiles } from '../../../make-app/generator/generate.ts';
import { MANIFEST, type CodeFiles, type CodeKey, type ComponentMetadata, type Manifest } from '../../../make-app/manifest.ts';
import { makeName } from '../../../make-app/operation-names.ts';
import type { Operation } from '../../../shared/operations/types.ts';
import type { ApiItem, SurfaceExtractor } from '../model.ts';
import { compact, factValue, isHidden, sortedValues } from './facts.ts';

/**
 * The Make app's public interface, read from the files the generator writes (what
 * `npm run make:deploy` uploads), in memory: each module with its type, its parameters as a
 * scenario stores them, its interface (what later modules map), the connection, the webhook and
 * the RPCs. A scenario names modules and parameters by these ids.
 */

interface Parameter {
  name: string;
  type?: string;
  label?: string;
  required?: boolean;
  default?: unknown;
  options?: unknown;
  multiple?: boolean;
  mode?: string;
  validate?: { pattern?: string };
  spec?: Parameter[] | Parameter;
}

const parametersIn = (value: unknown): Parameter[] =>
  Array.isArray(value) ? value.filter((p): p is Parameter => typeof p === 'object' && p !== null && 'name' in p) : [];

/** A select's static options: their values; `rpc://…` is a dynamic source, named as such. */
function options(parameter: Parameter): { choices?: string[]; dynamic?: string } {
  const { options } = parameter;
  if (typeof options === 'string') return { dynamic: options };
  if (Array.isArray(options)) return { choices: sortedValues(options.map((option) => (option as { value: unknown }).value)) };
  if (options && typeof options === 'object') {
    const store = (options as { store?: unknown }).store;
    if (typeof store === 'string') return { dynamic: store };
    if (Array.isArray(store)) return { choices: sortedValues(store.map((option) => (option as { value: unknown }).value)) };
  }
  return {};
}

// A validation pattern can be long (an e-mail's is 1,500 characters): the report holds its digest, so a line stays readable and a change still shows.
const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

function parameterItems(parent: string, list: unknown, segment: string, kind: string, placement?: string): ApiItem[] {
  return parametersIn(list).flatMap((parameter) => {
    const id = `${parent}/${segment}/${parameter.name}`;
    const item: ApiItem = {
      id,
      kind,
      facts: compact({
        type: parameter.type ?? 'text',
        ...(kind === 'parameter' ? { required: parameter.required ?? false, default: factValue(parameter.default), list: parameter.multiple } : {}),
        ...options(parameter),
        customValues: parameter.mode === 'edit' || undefined,
        pattern: parameter.validate?.pattern ? digest(parameter.validate.pattern) : undefined,
        placement,
        label: parameter.label,
      }),
    };
    // An array's or collection's fields sit under it: `module/x/output/team/id`.
    const spec = Array.isArray(parameter.spec)
      ? parameter.spec
      : parameter.spec && typeof parameter.spec === 'object'
        ? parametersIn(parameter.spec.spec ?? [])
        : [];
    return [item, ...parameterItems(parent, spec, `${segment}/${parameter.name}`, kind, placement)];
  });
}

export function makeItems(files: MakeAppFiles, operations: readonly Operation[]): ApiItem[] {
  const manifest = files.get(MANIFEST) as Manifest;
  const code = (codeFiles: CodeFiles, key: CodeKey) => {
    const path = codeFiles[key];
    return path ? files.get(path) : undefined;
  };
  // A component left out of local development (null) has nothing to report.
  const present = (group: Record<string, ComponentMetadata | null> | undefined) =>
    Object.entries(group ?? {}).filter((entry): entry is [string, ComponentMetadata] => entry[1] !== null);
  const operationOf = new Map(operations.map((operation) => [makeName(operation).name, operation]));
  const items: ApiItem[] = [];
  const { connection, webhook, rpc, module } = manifest.components;
  for (const [id, component] of present(connection)) {
    items.push({ id: `connection/${id}`, kind: 'connection', facts: compact({ kind: component.connectionType, label: component.label }) });
    items.push(...parameterItems(`connection/${id}`, code(component.codeFiles, 'params'), 'param', 'parameter'));
  }
  for (const [id, component] of present(webhook)) {
    items.push({
      id: `webhook/${id}`,
      kind: 'webhook',
      facts: compact({ kind: component.webhookType, connection: component.connection, label: component.label }),
    });
    items.push(...parameterItems(`webhook/${id}`, code(component.codeFiles, 'params'), 'param', 'parameter'));
  }
  for (const [id, component] of present(rpc)) {
    items.push({ id: `rpc/${id}`, kind: 'rpc', facts: compact({ connection: component.connection, label: component.label }) });
    items.push(...parameterItems(`rpc/${id}`, code(component.codeFiles, 'params'), 'param', 'parameter'));
  }
  for (const [id, component] of present(module)) {
    const parent = `module/${id}`;
    items.push({
      id: parent,
      kind: 'module',
      facts: compact({
        kind: component.moduleType,
        crud: component.actionCrud,
        connection: component.connection,
        webhook: component.webhook,
        hidden: isHidden(operationOf.get(id)) || undefined,
        label: component.label,
      }),
    });
    items.push(...parameterItems(parent, code(component.codeFiles, 'staticParams'), 'param', 'parameter', 'static'));
    items.push(...parameterItems(parent, code(component.codeFiles, 'mappableParams'), 'param', 'parameter', 'mappable'));
    items.push(...parameterItems(parent, code(component.codeFiles, 'interface'), 'output', 'output'));
  }
  return items;
}

export const extractor: SurfaceExtractor = {
  surface: 'make',
  async extract(options = {}) {
    const { operations } = options.source ?? (await import('../../../shared/operations/index.ts'));
    return { surface: 'make', items: makeItems(generateMakeApp(options.source ?? {}), operations) };
  },
};
