import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import * as z from 'zod/mini';
import { generateMakeApp } from '../make-app/generator/generate.ts';
import { codeFilePath } from '../make-app/generator/names.ts';
import type { Loose } from './support/zapier-neutral-form.ts';
import { renderTemplate } from '../make-app/interpreter/iml/index.ts';
import { checkAgainstSchemas } from '../make-app/schema-check/check-against-schemas.ts';
import { makeSchemasDir } from '../make-app/schema-check/beside-checkout.ts';
import { defineEndpoint } from '../shared/catalog/endpoint.ts';
import { endpoints, type EndpointKey } from '../shared/catalog/endpoints.ts';
import { GROUPS } from '../shared/operations/groups.ts';
import { hasStepMarker, operations, stepOf, THIS_STEP } from '../shared/operations/index.ts';
import { derivedOutputFields, shapeItem, type ItemShape } from '../shared/operations/item-shape.ts';
import type { ActionOperation, Operation, OperationId, SearchOperation } from '../shared/operations/types.ts';
import { zapierApp } from '../zapier-app/index.ts';
import { generateN8nPackage } from '../n8n-app/generator/generate.ts';
import { actionNodeDescription } from '../n8n-app/generator/descriptions.ts';
import type { NodeProperty } from '../n8n-app/generator/properties.ts';
import { paths } from '../n8n-app/generator/package-files.ts';
import { openApi } from '../openapi/generate.ts';
import { surfaces } from '../surfaces/index.ts';
import type { GeneratedFiles } from '../surfaces/surface.ts';

/**
 * A new operation is one catalog entry plus one description, and shows up on every surface.
 * Two made-up operations, on made-up endpoints, are added to COPIES of the catalog and of the
 * operation list (the real ones stay as they are); every app must gain them whole (module,
 * parameters, interface, group, CRUD kind, sample) under the names its convention gives an id
 * that its name map has no entry for, and nothing else may change. A shipped operation cannot
 * lack an entry: the maps are `satisfies Record<OperationId, ...>` (test/types/operation-names.ts).
 */

// Made up: the spec has no snooze and no escalations.
const snoozeEndpoint = defineEndpoint({
  key: 'snoozeIncident',
  method: 'POST',
  path: '/o/incident/{id}/snooze',
  base: 'api',
  summary: 'Snooze an incident',
  adminOnly: false,
  idempotent: true,
  documented: false,
  input: z.object({ id: z.string(), minutes: z.string() }),
  output: z.looseObject({}),
  outputShape: 'assumed',
  assumptions: [],
});
const escalationsEndpoint = defineEndpoint({
  key: 'listEscalations',
  method: 'GET',
  path: '/o/escalations',
  base: 'rotations',
  summary: 'List escalations',
  adminOnly: false,
  idempotent: true,
  documented: false,
  input: z.object({ teamname: z.optional(z.string()) }),
  output: z.array(z.looseObject({})),
  outputShape: 'assumed',
  assumptions: [],
});
const catalog = { ...endpoints, snoozeIncident: snoozeEndpoint, listEscalations: escalationsEndpoint };

const snooze: ActionOperation = {
  kind: 'action',
  // The id union names the shipped operations; this one is in the copy only.
  id: 'snoozeIncident' as OperationId,
  // The operation types name the real catalog's keys; this one is in the copy only.
  endpoint: 'snoozeIncident' as EndpointKey,
  effect: 'update',
  group: GROUPS.incidents,
  noun: 'Incident',
  description: "Silences an incident's pages for a while.",
  inputFields: [
    { key: 'id', label: 'Incident ID', type: 'string', required: true, help: 'The incident to snooze.' },
    { key: 'minutes', label: 'Minutes', type: 'string', required: false, help: 'How long; 30 when empty.' },
  ],
  outputFields: [
    { key: 'id', label: 'Incident ID', type: 'string' },
    { key: 'snoozed_until', label: 'Snoozed Until', type: 'datetime' },
  ],
  sample: { id: 'inc_0001', snoozed_until: '2026-11-02T09:30:00.000Z' },
};

const escalationItem: ItemShape = {
  spread: 'item',
  fields: {
    team_name: { path: 'item.team.name', label: 'Team Name' },
    escalation_count: { count: 'body', label: 'Escalations: Count' },
  },
};
const escalationAnswer = [
  { id: 'esc_1', level: 2, team: { name: 'Platform' } },
  { id: 'esc_2', level: 1, team: { name: 'Data' } },
];
const findEscalations: SearchOperation = {
  kind: 'search',
  id: 'findEscalations' as OperationId,
  endpoint: 'listEscalations' as EndpointKey,
  results: 'each-element',
  notFoundIsEmpty: false,
  group: 'Escalations',
  noun: 'Escalation',
  description: 'Finds the open escalations.',
  inputFields: [{ key: 'teamname', label: 'Team', type: 'string', required: false, dynamic: 'team', help: "Only this team's." }],
  item: escalationItem,
  outputFields: [{ key: 'id', label: 'Escalation ID', type: 'string' }, ...derivedOutputFields(escalationItem)],
  sample: shapeItem(escalationItem, { body: escalationAnswer, item: escalationAnswer[0] }),
};

const added: readonly Operation[] = [...operations, snooze, findEscalations];

// Functions (performs) are compared by presence: the rest of a definition is data.
const data = (value: unknown) => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'function' ? 'function' : v)));

describe('a made-up operation added to a copy of the descriptions', () => {
  it('the descriptions themselves: output fields and sample come from the item shape', () => {
    expect(findEscalations.outputFields.slice(1)).toEqual([
      { key: 'team_name', label: 'Team Name', type: 'string' },
      { key: 'escalation_count', label: 'Escalations: Count', type: 'number' },
    ]);
    expect(findEscalations.sample).toEqual({ id: 'esc_1', level: 2, team: { name: 'Platform' }, team_name: 'Platform', escalation_count: 2 });
  });

  describe('the Zapier app', () => {
    const real = zapierApp();
    const app = zapierApp(added);

    it('gains a create and a search with their fields, output fields and sample', () => {
      const create = app.creates.snooze_incident!;
      expect(data(create)).toEqual({
        key: 'snooze_incident',
        noun: 'Incident',
        display: { label: 'Snooze Incident', description: snooze.description },
        operation: {
          inputFields: [
            { key: 'id', label: 'Incident ID', type: 'string', required: true, helpText: 'The incident to snooze.' },
            { key: 'minutes', label: 'Minutes', type: 'string', required: false, helpText: 'How long; 30 when empty.' },
          ],
          perform: 'function',
          outputFields: [
            { key: 'id', label: 'Incident ID', type: 'string' },
            { key: 'snoozed_until', label: 'Snoozed Until', type: 'datetime' },
          ],
          sample: snooze.sample,
        },
      });
      const search = app.searches.find_escalations!;
      expect(search.operation.outputFields).toEqual([
        { key: 'id', label: 'Escalation ID', type: 'string' },
        { key: 'team_name', label: 'Team Name', type: 'string' },
        { key: 'escalation_count', label: 'Escalations: Count', type: 'number' },
      ]);
      expect(search.operation.sample).toEqual(findEscalations.sample);
      expect(search.operation.inputFields?.map((field: { key: string }) => field.key)).toEqual(['teamname']);
    });

    it('changes nothing else', () => {
      expect(Object.keys(app.creates)).toEqual([...Object.keys(real.creates), 'snooze_incident']);
      expect(Object.keys(app.searches)).toEqual([...Object.keys(real.searches), 'find_escalations']);
      const { creates, searches, ...rest } = data(app);
      const { creates: realCreates, searches: realSearches, ...realRest } = data(real);
      expect(rest).toEqual(realRest);
      expect({ ...creates, snooze_incident: undefined }).toEqual({ ...realCreates, snooze_incident: undefined });
      expect({ ...searches, find_escalations: undefined }).toEqual({ ...realSearches, find_escalations: undefined });
    });

    it("is a valid app definition by zapier-platform-core's own check (what `zapier validate` runs)", () => {
      // zapier-platform-core src/tools/schema.js: validateApp(compileApp(app)) against zapier-platform-schema.
      const { compileApp, validateApp } = createRequire(import.meta.url)('zapier-platform-core/src/tools/schema') as {
        compileApp: (app: unknown) => unknown;
        validateApp: (app: unknown) => unknown[];
      };
      expect(validateApp(compileApp(app))).toEqual([]);
    });
  });

  describe('the Make app', () => {
    const real = generateMakeApp();
    const files = generateMakeApp({ operations: added, endpoints: catalog });
    const manifest = files.get('makecomapp.json') as Loose;
    const file = (id: string, suffix: string) => files.get(codeFilePath('module', id, suffix)) as Loose;

    it('gains an action module: metadata, CRUD kind, request, parameters, interface and samples', () => {
      const { codeFiles, ...metadata } = manifest.components.module.snoozeIncident;
      expect(metadata).toEqual({
        label: 'Snooze incident',
        description: snooze.description,
        moduleType: 'action',
        actionCrud: 'update',
        connection: expect.any(String),
      });
      expect(Object.keys(codeFiles).sort()).toEqual(['communication', 'interface', 'mappableParams', 'samples', 'staticParams']);
      expect(file('snoozeIncident', 'communication')).toEqual({
        url: '/o/incident/{{parameters.id}}/snooze',
        method: 'POST',
        body: { id: '{{parameters.id}}', minutes: '{{parameters.minutes}}' },
        response: { output: '{{body}}' },
      });
      expect(file('snoozeIncident', 'mappable-params')).toEqual([
        { name: 'id', label: 'Incident ID', required: true, help: 'The incident to snooze.', type: 'text' },
        { name: 'minutes', label: 'Minutes', required: false, help: 'How long; 30 when empty.', type: 'text' },
      ]);
      expect(file('snoozeIncident', 'interface')).toEqual([
        { name: 'id', label: 'Incident ID', type: 'text' },
        // Make's labels are in sentence case (make-app/wording.ts).
        { name: 'snoozed_until', label: 'Snoozed until', type: 'date' },
      ]);
      expect(file('snoozeIncident', 'samples')).toEqual(snooze.sample);
    });

    it('gains a search module whose output, run by the IML evaluator, is the shared item', () => {
      expect(manifest.components.module.findEscalations.moduleType).toBe('search');
      expect(manifest.components.module.findEscalations.actionCrud).toBeUndefined();
      const communication = file('findEscalations', 'communication');
      expect(communication).toMatchObject({ url: '/pagerly/o/escalations', method: 'GET', qs: { teamname: '{{parameters.teamname}}' } });
      const item = escalationAnswer[1];
      expect(renderTemplate(communication.response.output, { body: escalationAnswer, item })).toEqual(
        shapeItem(escalationItem, { body: escalationAnswer, item }),
      );
      expect(file('findEscalations', 'interface')).toEqual([
        { name: 'id', label: 'Escalation ID', type: 'text' },
        { name: 'team_name', label: 'Team name', type: 'text' },
        { name: 'escalation_count', label: 'Escalations: count', type: 'number' },
      ]);
      expect(file('findEscalations', 'samples')).toEqual(findEscalations.sample);
    });

    it('lists the action in its group and the search in a new group of its own, before "Other"', () => {
      const groups = files.get('modules/groups.json') as { label: string; modules: string[] }[];
      const realGroups = real.get('modules/groups.json') as { label: string; modules: string[] }[];
      expect(groups.map((group) => group.label)).toEqual([...realGroups.slice(0, -1).map((group) => group.label), 'Escalations', 'Other']);
      expect(groups.find((group) => group.label === GROUPS.incidents)!.modules).toEqual([
        ...realGroups.find((group) => group.label === GROUPS.incidents)!.modules,
        'snoozeIncident',
      ]);
      expect(groups.find((group) => group.label === 'Escalations')!.modules).toEqual(['findEscalations']);
    });

    it("lists both in the app's README, after the real operations", () => {
      const lines = (files.get('README.md') as string).split('\n');
      const realLines = (real.get('README.md') as string).split('\n');
      const at = realLines.findIndex((line) => line.startsWith('- **Make an API call**'));
      expect(lines).toEqual([
        ...realLines.slice(0, at),
        `- **Snooze incident**: ${snooze.description}`,
        `- **Find escalations**: ${findEscalations.description}`,
        ...realLines.slice(at),
      ]);
    });

    it('changes no other file, and no other component', () => {
      const newFiles = [...files.keys()].filter((path) => !real.has(path));
      const suffixes = ['communication', 'static-params', 'mappable-params', 'interface', 'samples'];
      expect(newFiles.sort()).toEqual(
        ['snoozeIncident', 'findEscalations'].flatMap((id) => suffixes.map((suffix) => codeFilePath('module', id, suffix))).sort(),
      );
      for (const [path, content] of real) {
        if (path === 'makecomapp.json' || path === 'modules/groups.json' || path === 'README.md') continue;
        expect([path, files.get(path)]).toEqual([path, content]);
      }
      const realManifest = real.get('makecomapp.json') as Loose;
      const { snoozeIncident: _s, findEscalations: _l, ...others } = manifest.components.module;
      expect({ ...manifest, components: { ...manifest.components, module: others } }).toEqual(realManifest);
    });

    it("still holds to Make's official schemas", () => {
      const results = checkAgainstSchemas(makeSchemasDir, files);
      expect(results.filter((result) => result.errors.length)).toEqual([]);
    });
  });

  describe('the n8n package', () => {
    type OperationProperty = NodeProperty & { options: NonNullable<NodeProperty['options']> };
    const realProperties = actionNodeDescription().properties;
    const properties = actionNodeDescription(added).properties;
    const resourceOf = (list: NodeProperty[]) => list.find((p) => p.name === 'resource')!.options!;
    const operationsOf = (list: NodeProperty[], resource: string) =>
      list.find((p): p is OperationProperty => p.name === 'operation' && p.displayOptions?.show.resource?.[0] === resource)?.options;
    const fieldsOf = (list: NodeProperty[], resource: string, operation: string) =>
      list.filter((p) => p.displayOptions?.show.resource?.includes(resource) && p.displayOptions.show.operation?.includes(operation)).map((p) => p.name);

    it('gains the action under its resource and the search under a new one, each with its fields', () => {
      expect(resourceOf(properties)).toEqual(
        [...resourceOf(realProperties), { name: 'Escalation', value: 'escalation' }].sort((a, b) => a.name.localeCompare(b.name)),
      );
      expect(operationsOf(properties, 'incident')).toEqual(
        [
          ...operationsOf(realProperties, 'incident')!,
          { name: 'Snooze', value: 'snoozeIncident', description: "Silences an incident's pages for a while", action: 'Snooze incident' },
        ].sort((a, b) => a.name.localeCompare(b.name)),
      );
      expect(operationsOf(properties, 'escalation')).toEqual([
        { name: 'Find', value: 'findEscalations', description: 'Finds the open escalations', action: 'Find escalations' },
      ]);
      // n8n's layout: required fields, Return All and Limit on a list, then the optional fields' collection.
      expect(fieldsOf(properties, 'incident', 'snoozeIncident')).toEqual(['id', 'updateFields']);
      expect(fieldsOf(properties, 'escalation', 'findEscalations')).toEqual(['returnAll', 'limit', 'filters']);
    });

    it('changes no other parameter', () => {
      const isNew = (p: NodeProperty) =>
        p.name === 'resource' || p.displayOptions?.show.resource?.includes('escalation') || p.displayOptions?.show.operation?.includes('snoozeIncident');
      const incidentOperations = (p: NodeProperty) => p.name === 'operation' && p.displayOptions?.show.resource?.[0] === 'incident';
      const others = (list: NodeProperty[]) => list.filter((p) => !isNew(p) && !incidentOperations(p));
      expect(others(properties)).toEqual(others(realProperties));
    });

    it("writes both into the node's source and the package's README", () => {
      const files = generateN8nPackage(added);
      expect(String(files.get(paths.actionSource))).toContain("value: 'snoozeIncident'");
      expect(String(files.get(paths.actionSource))).toContain("value: 'findEscalations'");
      expect(String(files.get('README.md'))).toContain(`| Incident | Snooze | Snooze incident | ${snooze.description.replace(/\.$/, '')}`);
      expect(String(files.get('README.md'))).toContain(`| Escalation | Find | Find escalations | ${findEscalations.description.replace(/\.$/, '')}`);
    });
  });

  describe('the OpenAPI document', () => {
    type Loose = Record<string, any>;
    const real = openApi({ operations, endpoints }) as Loose;
    const grown = openApi({ operations: added, endpoints: catalog }) as Loose;

    it('gains an operation per made-up endpoint: its id, summary, base, fields, schemas, not documented', () => {
      const snoozeOp = grown['paths']['/o/incident/{id}/snooze'].post;
      expect(snoozeOp).toMatchObject({ operationId: 'snoozeIncident', summary: 'Snooze an incident', 'x-documented': false });
      expect(snoozeOp.description).toContain(`Snooze incident (\`snoozeIncident\`): ${snooze.description}`);
      expect(snoozeOp.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
      expect(grown['components'].schemas.SnoozeIncidentRequest.properties).toEqual({ minutes: { type: 'string' } });
      const escalations = grown['paths']['/o/escalations'].get;
      expect(escalations).toMatchObject({ operationId: 'listEscalations', servers: [{ url: 'https://api.pagerly.io/pagerly' }], tags: ['Escalations'] });
      expect(escalations.parameters).toEqual([expect.objectContaining({ name: 'teamname', in: 'query', required: false })]);
    });

    it('changes nothing else', () => {
      const { '/o/incident/{id}/snooze': _snooze, '/o/escalations': _escalations, ...paths } = grown['paths'];
      expect(paths).toEqual(real['paths']);
      const { SnoozeIncidentRequest, SnoozeIncidentResponse, ListEscalationsResponse, ...schemas } = grown['components'].schemas;
      expect(schemas).toEqual(real['components'].schemas);
      expect(grown['tags']).toEqual([...real['tags'], expect.objectContaining({ name: 'Escalations' })]);
      expect({ ...grown, paths: {}, tags: [], components: {} }).toEqual({ ...real, paths: {}, tags: [], components: {} });
    });
  });

  describe.each(surfaces.map((surface) => [surface.name, surface] as const))('every registered surface: %s', (_name, surface) => {
    const text = (files: GeneratedFiles) => [...files.values()].map((content) => (typeof content === 'string' ? content : JSON.stringify(content))).join('\n');
    const real = text(surface.generate({ operations, endpoints }));
    const grown = text(surface.generate({ operations: added, endpoints: catalog }));

    it.each([snooze, findEscalations].map((op) => [op.id, op] as const))('shows %s under its public names and label', (_id, op) => {
      const { names, label } = surface.nameOf(op);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(grown).toContain(name);
      expect(label).toBeDefined();
      expect(grown).toContain(label);
      expect(real).not.toContain(label);
    });

    // The shared texts mark where they name a step; each surface writes the mark in its own words.
    it('writes every step a shared text names in its own words, and no marker', () => {
      const mentioning: ActionOperation = {
        ...snooze,
        description: `Silences an incident's pages for a while; map its ID from ${stepOf('createIncident')}. Snoozed twice, ${THIS_STEP} keeps the later end.`,
        inputFields: snooze.inputFields.map((field) => ({ ...field, help: `${field.help} From ${stepOf('updateIncident')} too.` })),
      };
      const said = text(surface.generate({ operations: [...operations, mentioning], endpoints: catalog }));
      expect(hasStepMarker(real)).toBe(false);
      expect(hasStepMarker(said)).toBe(false);
      expect(said).toContain(`map its ID from ${surface.steps.step('createIncident')}.`);
      expect(said).toContain(`Snoozed twice, ${surface.steps.thisStep} keeps the later end`);
    });
  });
});
