import { describe, expect, it } from '@jest/globals';
import * as z from 'zod/mini';
import { openApi } from '../../openapi/generate.ts';
import type { ApiItem } from '../../scripts/api/model.ts';
import { extractor, openApiItems } from '../../scripts/api/surfaces/openapi.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { incident, incidentInput } from '../../shared/schemas/incident.ts';

/**
 * The OpenAPI report holds what the document really describes, and a change to a copy of the
 * catalog (an input key renamed, an optional input made required, an output field removed)
 * changes the items it should and no other.
 */

type Json = Record<string, unknown>;
const byId = (items: readonly ApiItem[]) => new Map(items.map((i) => [i.id, i]));
const document = openApi({ operations, endpoints }) as Json;

describe('the OpenAPI report against the document', () => {
  it('has each operation with its method and path, and nothing else as an operation', async () => {
    const report = await extractor.extract();
    const items = byId(report.items);
    const expected: string[] = [];
    for (const [path, pathItem] of Object.entries(document['paths'] as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(pathItem)) {
        const id = `operation/${(operation as Json)['operationId']}`;
        expected.push(id);
        expect(items.get(id)?.facts['signature']).toBe(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(
      report.items
        .filter((i) => i.kind === 'operation' && i.id.startsWith('operation/'))
        .map((i) => i.id)
        .sort(),
    ).toEqual(expected.sort());
    expect(report.items.map((i) => i.id)).toEqual(report.items.map((i) => i.id).sort());
  });

  it("has each request body's properties as the schema requires them, $refs followed", () => {
    const items = byId(openApiItems(document));
    const schemas = (document['components'] as Json)['schemas'] as Record<string, { properties: Json; required?: string[] }>;
    const body = schemas['CreateOrUpdateIncidentRequest']!;
    for (const key of Object.keys(body.properties)) {
      expect(items.get(`operation/createOrUpdateIncident/request/${key}`)?.facts['required']).toBe(body.required?.includes(key) ?? false);
    }
    expect(items.get('operation/createOrUpdateIncident/request/status')?.facts['choices']).toEqual(['acknowledged', 'resolved', 'triggered']);
    expect(items.get('operation/getDirectoryEntry/parameter/query/email')?.facts).toMatchObject({ type: 'string', required: true });
    // A list answer: each element's keys under `[]`.
    expect(items.get('operation/listOnCallUsers/response/200/body/[].email')?.facts).toMatchObject({ type: 'string', required: true });
    // The webhook's payload is read by the receiver.
    expect(items.get('webhook/onCallChanged/request/team.name')?.kind).toBe('output');
    expect(items.get('security/ApiKey')?.facts).toMatchObject({ kind: 'apiKey', in: 'header', name: 'X-APIKEY' });
  });
});

describe('a change to a copy of the catalog', () => {
  const changed = (input: z.ZodMiniType, output: z.ZodMiniType) =>
    byId(
      openApiItems(
        openApi({ operations, endpoints: { ...endpoints, createOrUpdateIncident: { ...endpoints.createOrUpdateIncident, input, output } } }) as Json,
      ),
    );
  const before = byId(openApiItems(document));
  const { title, severity, ...rest } = incidentInput.shape;

  it('an input key renamed is one request property gone and another added', () => {
    const after = changed(z.object({ ...rest, severity, headline: title }), incident);
    expect(before.has('operation/createOrUpdateIncident/request/title')).toBe(true);
    expect(after.has('operation/createOrUpdateIncident/request/title')).toBe(false);
    expect(after.get('operation/createOrUpdateIncident/request/headline')?.facts['required']).toBe(true);
    expect(after.get('operation/createOrUpdateIncident/request/severity')).toEqual(before.get('operation/createOrUpdateIncident/request/severity'));
  });

  it('an optional input made required changes its required fact', () => {
    const after = changed(z.object({ ...rest, title, severity: z.string() }), incident);
    expect(before.get('operation/createOrUpdateIncident/request/severity')?.facts['required']).toBe(false);
    expect(after.get('operation/createOrUpdateIncident/request/severity')?.facts['required']).toBe(true);
  });

  it('an output field removed is gone from the response', () => {
    const { severity: _, ...kept } = incident.shape;
    const after = changed(incidentInput, z.looseObject(kept));
    expect(before.has('operation/createOrUpdateIncident/response/2XX/body/severity')).toBe(true);
    expect(after.has('operation/createOrUpdateIncident/response/2XX/body/severity')).toBe(false);
    expect(after.has('operation/createOrUpdateIncident/response/2XX/body/status')).toBe(true);
  });
});
