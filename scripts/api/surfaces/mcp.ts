import { toolList } from '../../../mcp-server/surface.ts';
import { toolDefinitions } from '../../../mcp-server/tools.ts';
import { mcpName } from '../../../mcp-server/operation-names.ts';
import type { SurfaceSource } from '../../../surfaces/surface.ts';
import type { ApiItem, Fact, SurfaceExtractor } from '../model.ts';
import { compact, isHidden, sortedValues } from './facts.ts';

/**
 * The MCP server's public interface, read from the tool list `pagerly mcp` answers `tools/list`
 * with (the same conversion the SDK makes), built in memory: each tool's name, annotations and
 * input and output schemas, flattened to one item per property path with its type, whether it
 * is required and its default. Hosts cache this list, and agents' prompts name the tools and
 * arguments. And what a host's configuration names: the variable the key comes from, the
 * header an HTTP client sends it in, the path it connects to (the constants the server reads).
 */

interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  default?: unknown;
  description?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

/** A schema's types as one text: `string`, `string|null`, `array<object>`. */
function typeOf(schema: Schema): string {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return sortedValues(union.map(typeOf)).join('|');
  if (Array.isArray(schema.type)) return sortedValues(schema.type).join('|');
  if (schema.type === 'array' && schema.items) return `array<${typeOf(schema.items)}>`;
  if (schema.const !== undefined) return typeof schema.const;
  return schema.type ?? 'any';
}

/** The object schema a property holds, through a nullable union or an array's items. */
function objectIn(schema: Schema): Schema | undefined {
  if (schema.properties) return schema;
  if (schema.items) return objectIn(schema.items);
  for (const option of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectIn(option);
    if (found) return found;
  }
  return undefined;
}

function enumOf(schema: Schema): string[] | undefined {
  if (schema.enum) return sortedValues(schema.enum);
  const union = (schema.anyOf ?? schema.oneOf)?.flatMap((option) => option.enum ?? []);
  return union?.length ? sortedValues(union) : undefined;
}

function schemaItems(parent: string, schema: Schema, kind: 'input' | 'output'): ApiItem[] {
  const object = objectIn(schema);
  if (!object?.properties) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([name, property]) => {
    const id = `${parent}/${name}`;
    const facts: Record<string, Fact | undefined> = {
      type: typeOf(property),
      required: required.has(name),
      choices: enumOf(property),
      default: property.default === undefined ? undefined : JSON.stringify(property.default),
      format: property.format,
      minLength: property.minLength,
      maxLength: property.maxLength,
      minimum: property.minimum,
      maximum: property.maximum,
      minItems: property.minItems,
      maxItems: property.maxItems,
      pattern: property.pattern,
    };
    return [{ id, kind, facts: compact(facts) }, ...schemaItems(id, property, kind)];
  });
}

export function mcpItems(source: SurfaceSource): ApiItem[] {
  const hiddenTools = new Set(
    source.operations.flatMap((operation) => {
      const name = mcpName(operation);
      return isHidden(operation) && 'tool' in name ? [name.tool] : [];
    }),
  );
  return toolList(toolDefinitions(source)).flatMap((tool) => {
    const id = `tool/${tool.name}`;
    const annotations = tool.annotations as unknown as Record<string, unknown>;
    const hints = Object.fromEntries(Object.entries(annotations).filter(([, value]) => typeof value === 'boolean')) as Record<string, boolean>;
    return [
      {
        id,
        kind: 'tool',
        facts: compact({ ...hints, writeTool: tool.writeTool, hidden: hiddenTools.has(tool.name) || undefined, title: tool.title }),
      },
      ...schemaItems(`${id}/input`, tool.inputSchema as Schema, 'input'),
      ...schemaItems(`${id}/output`, tool.outputSchema as Schema, 'output'),
    ];
  });
}

/** What a host's configuration names, from the constants the server reads. */
export function hostItems(names: { apiKeyEnv: string; keyHeader: string; path: string; host: string; port: number }): ApiItem[] {
  return [
    { id: `env/${names.apiKeyEnv}`, kind: 'env', facts: { description: "the key, in the server's environment (on HTTP, unless --key-from-header)" } },
    { id: `http/header/${names.keyHeader.toLowerCase()}`, kind: 'header', facts: { description: "each request's key, with --key-from-header" } },
    { id: 'http', kind: 'endpoint', facts: { path: names.path, description: 'where an HTTP client connects (pagerly mcp --http)' } },
    // A host configured with http://127.0.0.1:8791/mcp reaches a server started without --host or --port only while these stay.
    { id: 'http/host', kind: 'parameter', facts: { default: names.host, description: 'the address listened on without --host' } },
    { id: 'http/port', kind: 'parameter', facts: { default: String(names.port), description: 'the port listened on without --port' } },
  ];
}

export const extractor: SurfaceExtractor = {
  surface: 'mcp',
  async extract(options = {}) {
    const source = options.source ?? {
      operations: (await import('../../../shared/operations/index.ts')).operations,
      endpoints: (await import('../../../shared/catalog/endpoints.ts')).endpoints,
    };
    const { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, KEY_HEADER, MCP_PATH } = await import('../../../mcp-server/http.ts');
    const { API_KEY_ENV } = await import('../../../mcp-server/server.ts');
    const host = { apiKeyEnv: API_KEY_ENV, keyHeader: KEY_HEADER, path: MCP_PATH, host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT };
    return { surface: 'mcp', items: [...mcpItems(source), ...hostItems(host)] };
  },
};
