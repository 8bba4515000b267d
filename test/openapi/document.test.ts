import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { DOCUMENT_JSON, DOCUMENT_YAML, generateOpenApi, openApi } from '../../openapi/generate.ts';
import { servers, wireSchema } from '../../openapi/generator/document.ts';
import { readRecordings } from '../../openapi/generator/recordings.ts';
import { postmanCollection } from '../../openapi/postman.ts';
import { openApiSurface } from '../../openapi/surface.ts';

/**
 * The OpenAPI document is the catalog's: an operation per endpoint with its key as operationId,
 * the bases as servers, the key header as security, schemas from the zod schemas as they are on
 * the wire, and recorded answers as examples.
 * OpenAPI 3.1: https://spec.openapis.org/oas/v3.1.0 (Operation, Server, Security Scheme, Link objects).
 */
type Loose = Record<string, any>;
const document = openApi({ operations, endpoints }) as Loose;
const operationAt = (path: string, method: string): Loose => document['paths'][path][method.toLowerCase()];
const pascal = (key: string) => key[0]!.toUpperCase() + key.slice(1);

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the API base as its server and the rotations base on the operations under it', () => {
    expect(document['openapi']).toBe('3.1.0');
    expect(document['servers'].map((server: Loose) => server.url)).toEqual([servers.api]);
    expect(servers).toEqual({ api: 'https://api.pagerly.io', rotations: 'https://api.pagerly.io/pagerly' });
    for (const endpoint of Object.values(endpoints)) {
      const op = operationAt(endpoint.path, endpoint.method);
      expect([endpoint.key, op['servers']?.map((server: Loose) => server.url)]).toEqual([
        endpoint.key,
        endpoint.base === 'api' ? undefined : [servers.rotations],
      ]);
    }
  });

  it('asks for the key in the X-APIKEY header on every operation', () => {
    expect(document['components'].securitySchemes).toEqual({ ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-APIKEY' }) });
    expect(document['security']).toEqual([{ ApiKey: [] }]);
    for (const item of Object.values(document['paths']) as Loose[]) for (const op of Object.values(item)) expect(op.security).toBeUndefined();
  });

  it('has one operation per endpoint: its key, summary, a description, whether the service documents it, the documented 400', () => {
    const ids = Object.values(document['paths']).flatMap((item) => Object.values(item as Loose).map((op) => op.operationId));
    expect(ids.toSorted()).toEqual(Object.keys(endpoints).toSorted());
    for (const endpoint of Object.values(endpoints)) {
      const op = operationAt(endpoint.path, endpoint.method);
      expect(op).toMatchObject({
        operationId: endpoint.key,
        summary: endpoint.summary,
        'x-documented': endpoint.documented,
        'x-admin-only': endpoint.adminOnly,
      });
      expect(op['description'].length).toBeGreaterThan(80);
      expect(op['responses']['400']).toEqual({ $ref: '#/components/responses/InvalidApiKey' });
      if (endpoint.withoutIt) expect(op['description']).toContain(endpoint.withoutIt);
    }
    expect(operationAt('/o/zapier/subscribe/{id}', 'DELETE')['x-documented']).toBe(false);
    expect(operationAt('/o/incident', 'POST')['description']).toContain('Create incident (`createIncident`)');
    expect(document['components'].responses.InvalidApiKey.content['application/json'].example).toEqual([{ Error: 'API Key is not valid' }]);
  });

  it("takes its schemas from zod's JSON Schema output, on the wire: answers before ids become strings, requests as checked", () => {
    const schemas = document['components'].schemas;
    for (const endpoint of Object.values(endpoints)) {
      expect(schemas[`${pascal(endpoint.key)}Response`]).toEqual(wireSchema(endpoint.output, 'input'));
    }
    // An id may arrive as a number (the client turns it into text): the wire allows both.
    expect(schemas.ListTeamsResponse.items.properties.id).toEqual({ type: ['string', 'number'] });
    // A phone number is sent with its separators removed: E.164 on the wire.
    expect(schemas.UpsertDirectoryEntryRequest.properties.phone).toEqual({ type: 'string', pattern: '^\\+[1-9]\\d{6,14}$' });
    // A query field is a parameter, a path field a path parameter, never a body field.
    expect(operationAt('/o/oncalluser', 'GET')['parameters']).toEqual([expect.objectContaining({ name: 'email', in: 'query', required: true })]);
    expect(operationAt('/o/make/subscribe/{id}', 'DELETE')['parameters']).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });

  it('shows recorded answers as examples, each fitting its schema (Ajv, JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false });
    const checked: string[] = [];
    for (const endpoint of Object.values(endpoints)) {
      const op = operationAt(endpoint.path, endpoint.method);
      const success = Object.entries(op['responses'] as Loose).find(([code]) => code.startsWith('2'))![1];
      const examples = success.content['application/json'].examples as Loose;
      expect([endpoint.key, Object.keys(examples ?? {}).length > 0]).toEqual([endpoint.key, true]);
      const schema = document['components'].schemas[`${pascal(endpoint.key)}Response`];
      for (const [name, { value }] of Object.entries(examples)) {
        expect([endpoint.key, name, ajv.validate(schema, value), ajv.errorsText()]).toEqual([endpoint.key, name, true, 'No errors']);
        checked.push(name);
      }
    }
    // Faults the sandbox injects (HTML, a cut-off body) are no example of the contract.
    expect(checked).not.toContain('html-instead-of-json');
    expect(checked).not.toContain('truncated-json');
    expect(new Set(checked).size).toBeGreaterThan(10);
    expect(readRecordings().length).toBeGreaterThan(10);
  });

  it("promises no shape for a create's success, which the reference does not show (assumption `created-id`)", () => {
    const success = operationAt('/o/incident', 'POST')['responses']['2XX'];
    expect(success.description).toContain('any 2xx means it was done, whatever the body');
    expect(success.headers.Location.description).toContain('last path segment is read as the id');
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: document['components'] });
    const schema = JSON.parse(JSON.stringify(success.content['application/json'].schema).replaceAll('"#/components/', '"doc#/components/'));
    for (const answer of [{ result: { id: 'INC-7' } }, [{ id: 'INC-7' }], 'INC-7', null, { id: 'inc_0001', title: 'Disk full' }])
      expect([answer, ajv.validate(schema, answer)]).toEqual([answer, true]);
    // A documented list stays a promise: an object there is not what the reference shows.
    const teams = operationAt('/o/zapier/allteams', 'GET')['responses']['200'].content['application/json'].schema;
    expect(ajv.validate(JSON.parse(JSON.stringify(teams).replaceAll('"#/components/', '"doc#/components/')), {})).toBe(false);
  });

  it("links a hook's subscribe answer to its removal, by the id it answers", () => {
    const success = operationAt('/o/zapier/subscribe', 'POST')['responses']['2XX'];
    expect(success.links).toEqual({
      unsubscribeZapierHook: expect.objectContaining({ operationId: 'unsubscribeZapierHook', parameters: { id: '$response.body#/id' } }),
    });
  });

  it('describes the hook delivery as a webhook with the event schema', () => {
    expect(Object.keys(document['webhooks'])).toEqual(['onCallChanged']);
    expect(document['webhooks'].onCallChanged.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OnCallChangeEvent' });
  });

  it('is the same document as YAML', () => {
    const files = generateOpenApi({ operations, endpoints });
    expect(parse(files.get(DOCUMENT_YAML) as string)).toEqual(files.get(DOCUMENT_JSON));
  });

  it('names each operation by the operationIds it calls, as the README table shows', () => {
    const byId = Object.fromEntries(operations.map((op) => [op.id, openApiSurface.nameOf(op).names]));
    expect(byId['updateDirectoryEntry']).toEqual(['getDirectoryEntry', 'upsertDirectoryEntry']);
    expect(byId['onCallChanged']).toEqual(['onCallChanged']);
  });
});

describe('the Postman collection made from it', () => {
  it('has a test script in every request: its status and, by the schema, its body', async () => {
    const collection = (await postmanCollection(document)) as Loose;
    const requests: Loose[] = [];
    const walk = (items: Loose[]) => {
      for (const item of items) item.item ? walk(item.item) : requests.push(item);
    };
    walk(collection['item']);
    expect(requests).toHaveLength(Object.keys(endpoints).length);
    for (const request of requests) {
      const script = request.event.find((event: Loose) => event.listen === 'test').script.exec.join('\n');
      expect([request.name, script]).toEqual([request.name, expect.stringMatching(/pm\.test\('status is (200|2XX)'/)]);
      expect(script).toContain('pm.response.to.have.jsonSchema(');
      expect(request.request.url.host[0]).toMatch(/^\{\{(baseUrl|rotationsBaseUrl)\}\}$/);
    }
    // The key is a variable left empty: the file holds none.
    expect(collection['variable']).toContainEqual({ key: 'apiKey', value: '' });
    expect(collection['auth']).toMatchObject({ type: 'apikey' });
  });
});
