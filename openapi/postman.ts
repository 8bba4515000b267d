import { convertV2 } from 'openapi-to-postmanv2';
import type { BaseName } from '../shared/catalog/endpoint.ts';
import { servers } from './generator/document.ts';

type Json = Record<string, unknown>;

/** The collection's variable that holds each base: point them at another service (the sandbox) to run it there. */
export const BASE_VARIABLES: Readonly<Record<BaseName, string>> = { api: 'baseUrl', rotations: 'rotationsBaseUrl' };
/** The collection's variable for the key: empty in the file, given when it runs (`newman run --env-var apiKey=...`). */
export const KEY_VARIABLE = 'apiKey';

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly base: BaseName;
  readonly op: Json;
}

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { host?: string[]; path?: string[]; protocol?: string; query?: unknown[]; variable?: { key: string; value: string }[] } };
  event?: unknown[];
}

/** The document's operations, each with the base its servers give it. */
function operationsOf(document: Json): Operation[] {
  const paths = document['paths'] as Record<string, Record<string, Json>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const url = (op['servers'] as { url: string }[] | undefined)?.[0]?.url ?? servers.api;
      const base = (Object.keys(servers) as BaseName[]).find((name) => servers[name] === url);
      if (!base) throw new Error(`${method.toUpperCase()} ${path} has a server that is neither base: ${url}`);
      return { method: method.toUpperCase(), path, base, op };
    }),
  );
}

/** The value at a local `$ref` (`#/components/...`), refs inside it resolved too. */
function resolved(document: Json, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((entry) => resolved(document, entry));
  if (!value || typeof value !== 'object') return value;
  const { $ref } = value as { $ref?: string };
  if (typeof $ref === 'string') {
    const target = $ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    return resolved(document, target);
  }
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, resolved(document, entry)]));
}

/** The variable a link fills: the operation it opens and the parameter. */
const linkVariable = (operationId: string, parameter: string) => `${operationId}.${parameter}`;

/**
 * The test script of one request: its success status and, where the answer has a schema, that
 * the body fits it; each link of the answer stores the value it names for the request it opens.
 */
function testScript(document: Json, { op }: Operation): string[] {
  const responses = op['responses'] as Record<string, Json>;
  const success = Object.keys(responses).find((code) => code.startsWith('2'));
  if (!success) throw new Error(`${String(op['operationId'])} has no success response to assert`);
  const answer = resolved(document, responses[success]) as Json;
  const schema = (answer['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
  const links = (answer['links'] ?? {}) as Record<string, { operationId: string; parameters: Record<string, string> }>;
  const lines = [
    success === '2XX'
      ? `pm.test('status is 2XX', () => pm.expect(pm.response.code).to.be.within(200, 299));`
      : `pm.test('status is ${success}', () => pm.response.to.have.status(${success}));`,
  ];
  if (schema) lines.push(`pm.test('body fits the response schema', () => pm.response.to.have.jsonSchema(${JSON.stringify(schema)}));`);
  for (const link of Object.values(links)) {
    for (const [parameter, expression] of Object.entries(link.parameters)) {
      const pointer = /^\$response\.body#(\/.*)?$/.exec(expression);
      if (!pointer) throw new Error(`Link expression ${expression}: only $response.body#/... is followed`);
      const keys = JSON.stringify((pointer[1] ?? '').split('/').slice(1));
      lines.push(
        `pm.collectionVariables.set(${JSON.stringify(linkVariable(link.operationId, parameter))}, ${keys}.reduce((node, key) => node[key], pm.response.json()));`,
      );
    }
  }
  return lines;
}

/** GETs first, then POSTs, then DELETEs: reads see the seeded data, removals remove what the writes made. */
const METHOD_ORDER = ['GET', 'POST', 'DELETE'];

/**
 * The Postman collection of the document (openapi-to-postmanv2), made runnable against any
 * service: each base is a variable, every request carries a test script (its status, its body
 * against the schema; a collection without assertions would pass whatever the service
 * answered), requests run in method order within each folder, and a path value a link names
 * is taken from the answer that made it.
 */
export async function postmanCollection(document: Json): Promise<Json> {
  const converted = await new Promise<Json>((resolve, reject) =>
    convertV2(
      // A copy: the converter writes into the document it is given.
      { type: 'json', data: structuredClone(document) },
      { folderStrategy: 'Tags', parametersResolution: 'Example', enableOptionalParameters: true, alwaysInheritAuthentication: true },
      (error, result) => {
        const data = result?.output?.[0]?.data;
        if (error) reject(new Error(`openapi-to-postmanv2: ${error.message}`));
        else if (!result?.result || !data) reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`));
        else resolve(data as Json);
      },
    ),
  );
  const operations = operationsOf(document);
  const linked = new Set(
    operations.flatMap(({ op }) =>
      Object.values(op['responses'] as Record<string, Json>).flatMap((response) =>
        Object.values((resolved(document, response) as Json)['links'] ?? {}).flatMap((link: { operationId: string; parameters: Record<string, string> }) =>
          Object.keys(link.parameters).map((parameter) => linkVariable(link.operationId, parameter)),
        ),
      ),
    ),
  );
  const pathOf = (url: NonNullable<PostmanItem['request']>['url']) => `/${(url.path ?? []).join('/')}`;
  const operationOf = (request: NonNullable<PostmanItem['request']>) => {
    const path = pathOf(request.url);
    const found = operations.find(
      ({ method, path: template, base }) =>
        method === request.method && new RegExp(`^${new URL(servers[base]).pathname.replace(/\/$/, '')}${template.replace(/\{\w+\}/g, ':\\w+')}$`).test(path),
    );
    if (!found) throw new Error(`The collection's ${request.method} ${path} matches no operation of the document`);
    return found;
  };
  const fix = (items: PostmanItem[]): PostmanItem[] =>
    items
      .map((item) => {
        if (item.item) return { ...item, item: fix(item.item) };
        const request = item.request!;
        const operation = operationOf(request);
        const url = {
          ...request.url,
          host: [`{{${BASE_VARIABLES[operation.base]}}}`],
          path: operation.path
            .split('/')
            .slice(1)
            .map((segment) => segment.replace(/^\{(\w+)\}$/, ':$1')),
          variable: (request.url.variable ?? []).map((variable) => {
            const name = linkVariable(String(operation.op['operationId']), variable.key);
            return linked.has(name) ? { ...variable, value: `{{${name}}}` } : variable;
          }),
        };
        delete url.protocol;
        return {
          ...item,
          request: { ...request, url },
          event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(document, operation) } }],
        };
      })
      .toSorted((a, b) => (a.item || b.item ? 0 : METHOD_ORDER.indexOf(a.request!.method) - METHOD_ORDER.indexOf(b.request!.method)));
  return {
    ...converted,
    item: fix(converted['item'] as PostmanItem[]),
    variable: [
      ...(Object.keys(BASE_VARIABLES) as BaseName[]).map((base) => ({ key: BASE_VARIABLES[base], value: servers[base] })),
      { key: KEY_VARIABLE, value: '' },
    ],
  };
}
