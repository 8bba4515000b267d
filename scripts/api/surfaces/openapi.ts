import { item, oneLine, report, sortedList } from '../item-list.ts';
import type { ApiItem, SurfaceExtractor } from '../model.ts';
import { type JsonSchema, refResolver, type SchemaPath, schemaPaths } from '../schema-paths.ts';

/**
 * The OpenAPI document's public interface, as a generated client or a hand-written HTTP call
 * depends on it: each operation (its operationId, which generators name methods after, and
 * its method and path), each parameter, each request and response body flattened to property
 * paths with `$ref`s followed, the webhooks, the security scheme, the servers and the component
 * schemas' names (generated clients name their models after them).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = JsonSchema;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): [string, Json][] => (isJson(value) ? Object.entries(value).filter((pair): pair is [string, Json] => isJson(pair[1])) : []);

/** The facts a schema path carries in a report. */
function pathFacts(entry: SchemaPath) {
  return {
    type: entry.type,
    required: entry.required,
    choices: entry.choices,
    default: entry.default,
    list: entry.type === 'array' ? true : undefined,
    format: entry.format,
    pattern: entry.pattern,
    minLength: entry.minLength,
    maxLength: entry.maxLength,
    minimum: entry.minimum,
    maximum: entry.maximum,
    minItems: entry.minItems,
    maxItems: entry.maxItems,
  };
}

/** A body's media types, each flattened; the JSON one (the only one today) needs no name in its ids. */
function bodyItems(prefix: string, body: Json, kind: string, resolve: (ref: string) => Json): ApiItem[] {
  const items: ApiItem[] = [];
  for (const [mediaType, content] of entries(body['content'])) {
    const at = mediaType === 'application/json' ? prefix : `${prefix}/${mediaType}`;
    if (!isJson(content['schema'])) continue;
    for (const entry of schemaPaths(content['schema'], resolve, body['required'] !== false)) {
      items.push(item(entry.path ? `${at}/${entry.path}` : at, kind, pathFacts(entry)));
    }
  }
  return items;
}

/**
 * One operation's items. A webhook's request is sent by the service to the receiver, which
 * reads it: its parameters and body are outputs there (a removed field breaks the receiver).
 */
function operationItems(
  prefix: string,
  signature: string,
  operation: Json,
  shared: readonly Json[],
  resolve: (ref: string) => Json,
  sentByService = false,
): ApiItem[] {
  const [parameterKind, requestKind] = sentByService ? ['output', 'output'] : ['parameter', 'request-property'];
  const items: ApiItem[] = [
    item(prefix, 'operation', {
      signature,
      description: oneLine(typeof operation['summary'] === 'string' ? operation['summary'] : undefined),
      hidden: operation['deprecated'] === true ? true : undefined,
      security: sortedList(
        Array.isArray(operation['security']) ? operation['security'].flatMap((entry) => (isJson(entry) ? Object.keys(entry) : [])) : undefined,
      ),
    }),
  ];
  const parameters = [...shared, ...(Array.isArray(operation['parameters']) ? operation['parameters'] : [])]
    .filter(isJson)
    .map((parameter) => (typeof parameter['$ref'] === 'string' ? resolve(parameter['$ref']) : parameter));
  for (const parameter of parameters) {
    const where = `${prefix}/parameter/${String(parameter['in'])}/${String(parameter['name'])}`;
    const schema = isJson(parameter['schema']) ? parameter['schema'] : {};
    const [root, ...inside] = schemaPaths(schema, resolve, parameter['required'] === true);
    items.push(item(where, parameterKind, { ...pathFacts(root!), description: oneLine(parameter['description'] as string | undefined) }));
    for (const entry of inside) items.push(item(`${where}/${entry.path}`, parameterKind, pathFacts(entry)));
  }
  if (isJson(operation['requestBody'])) {
    const body = typeof operation['requestBody']['$ref'] === 'string' ? resolve(operation['requestBody']['$ref']) : operation['requestBody'];
    items.push(...bodyItems(`${prefix}/request`, body, requestKind, resolve));
  }
  for (const [status, given] of entries(operation['responses'])) {
    const response = typeof given['$ref'] === 'string' ? resolve(given['$ref']) : given;
    const at = `${prefix}/response/${status}`;
    const body = bodyItems(`${at}/body`, { ...response, required: true }, 'output', resolve);
    items.push(item(at, 'response', { description: oneLine(response['description'] as string | undefined) }), ...body);
    for (const [name, header] of entries(response['headers'])) {
      const schema = isJson(header['schema']) ? header['schema'] : {};
      items.push(item(`${at}/header/${name}`, 'output', { ...pathFacts(schemaPaths(schema, resolve, header['required'] === true)[0]!) }));
    }
  }
  return items;
}

/** The items of an OpenAPI 3.x document. */
export function openApiItems(document: Json): ApiItem[] {
  const resolve = refResolver(document);
  const items: ApiItem[] = [];
  for (const [path, pathItem] of entries(document['paths'])) {
    const shared = Array.isArray(pathItem['parameters']) ? pathItem['parameters'].filter(isJson) : [];
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isJson(operation)) continue;
      // An operation without an id is known by its method and path, as a client calls it.
      const id = typeof operation['operationId'] === 'string' ? operation['operationId'] : `${method.toUpperCase()} ${path}`;
      items.push(...operationItems(`operation/${id}`, `${method.toUpperCase()} ${path}`, operation, shared, resolve));
    }
  }
  for (const [name, pathItem] of entries(document['webhooks'])) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isJson(operation)) items.push(...operationItems(`webhook/${name}`, `${method.toUpperCase()} (webhook)`, operation, [], resolve, true));
    }
  }
  const components = isJson(document['components']) ? document['components'] : {};
  for (const [name, scheme] of entries(components['securitySchemes'])) {
    items.push(
      item(`security/${name}`, 'auth', {
        kind: String(scheme['type']),
        in: scheme['in'] as string | undefined,
        name: scheme['name'] as string | undefined,
        scheme: scheme['scheme'] as string | undefined,
        description: oneLine(scheme['description'] as string | undefined),
      }),
    );
  }
  for (const [name, schema] of entries(components['schemas'])) {
    items.push(item(`schema/${name}`, 'schema', { type: schemaPaths(schema, resolve)[0]!.type }));
  }
  const servers = Array.isArray(document['servers']) ? document['servers'].filter(isJson) : [];
  for (const server of servers)
    items.push(item(`server/${String(server['url'])}`, 'server', { description: oneLine(server['description'] as string | undefined) }));
  if (Array.isArray(document['security'])) {
    items.push(item('security', 'auth', { choices: sortedList(document['security'].flatMap((entry) => (isJson(entry) ? Object.keys(entry) : []))) }));
  }
  return items;
}

export const extractor: SurfaceExtractor = {
  surface: 'openapi',
  async extract() {
    // The document as `npm run build` makes it, generated in memory from the sources as they are now.
    const [{ openApi }, { operations }, { endpoints }] = await Promise.all([
      import('../../../openapi/generate.ts'),
      import('../../../shared/operations/index.ts'),
      import('../../../shared/catalog/endpoints.ts'),
    ]);
    return report('openapi', openApiItems(openApi({ operations, endpoints }) as Json));
  },
};
