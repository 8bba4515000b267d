import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import type { z } from 'zod';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { ADMIN_ONLY_NOTE } from '../../shared/operations/fields.ts';
import { operations, type Operation } from '../../shared/operations/index.ts';
import { onCallChangedOperation, onCallChangedTrigger } from '../../zapier-app/triggers/on-call-changed.ts';
import { withTeamLabel } from '../../zapier-app/fields/team-dropdown.ts';
import { teamTrigger } from '../../zapier-app/triggers/team.ts';
import { zapierHookEndpoints } from '../../zapier-app/hook-endpoints.ts';
import { zapierName } from '../../zapier-app/operation-names.ts';
import { App } from './support.ts';
import { authentication } from '../../zapier-app/authentication.ts';

const { compileApp, validateApp } = createRequire(import.meta.url)('zapier-platform-core/src/tools/schema') as {
  compileApp(app: object): object;
  validateApp(compiled: object): unknown[];
};

interface ZapierField {
  key: string;
  label: string;
  required?: boolean;
  type?: string;
  dynamic?: string;
  choices?: { value: string; label: string; sample: string }[];
}
interface ZapierOperation {
  key: string;
  display: { label: string; description: string; hidden?: boolean };
  operation: { inputFields?: ZapierField[]; outputFields: ZapierField[]; sample: Record<string, unknown> } & Record<string, unknown>;
}

/** Every trigger, create and search of the app, with where it is and the shared description it came from. */
const definitions: { kind: string; definition: ZapierOperation; source: Operation }[] = [
  ...Object.entries(App.triggers).map(([, d]) => ({ kind: 'trigger', definition: d as unknown as ZapierOperation })),
  ...Object.entries(App.creates).map(([, d]) => ({ kind: 'create', definition: d as unknown as ZapierOperation })),
  ...Object.entries(App.searches).map(([, d]) => ({ kind: 'search', definition: d as unknown as ZapierOperation })),
].map((entry) => {
  const source = operations.find((op) => zapierName(op).key === entry.definition.key);
  if (!source) throw new Error(`${entry.kind} ${entry.definition.key} has no shared description`);
  return { ...entry, source };
});

/** The endpoint an operation's input fields are sent to. */
const endpointOf = (op: Operation): EndpointKey => (op.kind === 'hook' ? zapierHookEndpoints.subscribe : op.endpoint);

describe('Zapier app definition', () => {
  it("passes zapier-platform-core's schema validation with no error", () => {
    expect(validateApp(compileApp(App))).toEqual([]);
  });

  it('declares exactly the public keys, which existing Zaps depend on', () => {
    expect(Object.keys(App.triggers).sort()).toEqual(['on_call_changed', 'team']);
    expect(Object.keys(App.creates).sort()).toEqual([
      'change_directory_role',
      'create_directory_entry',
      'create_incident',
      'remove_directory_entry',
      'update_directory_entry',
      'update_directory_phone',
      'update_incident',
    ]);
    expect(Object.keys(App.searches).sort()).toEqual(['find_directory_entry', 'find_on_call_users']);
    for (const [key, definition] of [...Object.entries(App.triggers), ...Object.entries(App.creates), ...Object.entries(App.searches)]) {
      expect(definition.key).toBe(key);
    }
    expect(definitions).toHaveLength(operations.length);
  });

  it('has a hidden team trigger and an instant on-call trigger with the four REST hook methods', () => {
    expect(App.triggers.team).toBe(teamTrigger);
    expect(teamTrigger.display.hidden).toBe(true);
    expect(App.triggers.on_call_changed).toBe(onCallChangedTrigger);
    expect(onCallChangedTrigger.operation).toBe(onCallChangedOperation);
    const operation = onCallChangedOperation;
    expect(operation.type).toBe('hook');
    for (const method of [operation.performSubscribe, operation.performUnsubscribe, operation.perform, operation.performList]) {
      expect(typeof method).toBe('function');
    }
    expect('hidden' in onCallChangedTrigger.display).toBe(false);
  });

  it('authenticates with one custom API key field, a password', () => {
    expect(authentication.type).toBe('custom');
    expect(authentication.fields).toEqual([expect.objectContaining({ key: 'apiKey', type: 'password', required: true })]);
    expect(authentication.fields[0]?.label).toBe('API Key');
    expect(typeof authentication.test).toBe('function');
    expect(typeof authentication.connectionLabel).toBe('function');
  });

  it('says "org admin only" in the description of exactly the actions whose endpoint is admin only', () => {
    const adminOnly = Object.values(App.creates)
      .filter((create) => {
        const source = operations.find((op) => zapierName(op).key === create.key);
        return source?.kind === 'action' && endpoints[source.endpoint].adminOnly;
      })
      .map((create) => create.key)
      .sort();
    expect(adminOnly).toEqual(['change_directory_role', 'create_directory_entry', 'remove_directory_entry', 'update_directory_entry']);
    for (const create of Object.values(App.creates)) {
      const description = create.display.description ?? '';
      const says = description.includes(ADMIN_ONLY_NOTE) && /org admin's key/.test(description);
      expect({ key: create.key, saysOrgAdminOnly: says }).toEqual({ key: create.key, saysOrgAdminOnly: adminOnly.includes(create.key) });
    }
  });

  it("offers every team field as the team trigger's dropdown (value: the team name; label: it, controls shown)", () => {
    const teamFields = definitions.flatMap(({ definition }) => (definition.operation.inputFields ?? []).filter((f) => f.key === 'teamname'));
    expect(teamFields.length).toBe(4); // on_call_changed, create_incident, update_incident, find_on_call_users
    for (const field of teamFields) expect(field.dynamic).toBe('team.name.name_shown');
  });

  it('offers severities P1 to P5 and the roles admin and user', () => {
    const incidentFields = App.creates.create_incident?.operation.inputFields ?? [];
    const severity = incidentFields.find((f) => f.key === 'severity');
    expect(severity?.choices?.map((c) => c.value)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5']);
    expect(severity?.helpText).toMatch(/type or map another value/);
    for (const key of ['create_directory_entry', 'update_directory_entry', 'change_directory_role']) {
      const role = App.creates[key]?.operation.inputFields?.find((f) => f.key === 'role');
      expect(role?.choices?.map((c) => c.value)).toEqual(['admin', 'user']);
      for (const choice of role?.choices ?? []) expect(choice.label.trim()).not.toBe('');
    }
    expect(App.creates.change_directory_role?.operation.inputFields?.find((f) => f.key === 'role')?.required).toBe(true);
  });

  describe.each(definitions.map((d) => [`${d.kind} ${d.definition.key}`, d] as const))('%s', (_name, { definition, source }) => {
    it('labels every output field, once per key', () => {
      const fields = definition.operation.outputFields;
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) expect({ key: field.key, label: field.label.trim() === '' ? 'missing' : 'ok' }).toEqual({ key: field.key, label: 'ok' });
      expect(new Set(fields.map((f) => f.key)).size).toBe(fields.length);
    });

    it('has a sample with a value for each top-level output field', () => {
      const { sample } = definition.operation;
      const missing = source.outputFields.map((f) => f.key).filter((key) => !Object.hasOwn(sample, key) || sample[key] === undefined);
      expect(missing).toEqual([]);
      // The shared sample itself; the team trigger's adds the label its dropdown shows (team-dropdown.ts).
      if (source.kind === 'list') expect(sample).toEqual(withTeamLabel(source.sample));
      else expect(sample).toBe(source.sample);
    });

    it('has the input fields of its shared description, each labelled and helped', () => {
      const fields = (definition.operation.inputFields ?? []).filter((f) => f.type !== 'copy');
      expect(fields.map((f) => [f.key, f.required])).toEqual(source.inputFields.map((f) => [f.key, f.required]));
      for (const field of fields) {
        expect(field.label.trim()).not.toBe('');
        expect((field as { helpText?: string }).helpText?.trim()).toBeTruthy();
      }
    });
  });
});

describe('shared operation descriptions against the endpoint catalog', () => {
  const optional = (schema: z.ZodType) => schema.safeParse(undefined).success;

  describe.each(operations.map((op) => [op.id, op] as const))('%s', (_key, op) => {
    const input = endpoints[endpointOf(op)].input as unknown as z.ZodObject;

    it('only has input fields its endpoint takes', () => {
      const unknown = op.inputFields.map((f) => f.key).filter((key) => !(key in input.shape));
      expect(unknown).toEqual([]);
    });

    it('requires every field its endpoint requires, unless an update fills it from the record it reads first', () => {
      const notRequired = op.inputFields.filter((field) => !field.required && !optional(input.shape[field.key] as z.ZodType)).map((field) => field.key);
      expect(notRequired).toEqual(op.kind === 'action' && op.keepsOmitted ? notRequired : []);
      // An update may require more than its endpoint (the Incident ID), never less than the record it reads needs.
      if (op.kind === 'action' && op.keepsOmitted) {
        const read = endpoints[op.keepsOmitted.read].input as unknown as z.ZodObject;
        const readRequired = Object.entries(read.shape)
          .filter(([, schema]) => !optional(schema as z.ZodType))
          .map(([key]) => key);
        expect(readRequired.filter((key) => !op.inputFields.some((f) => f.key === key && f.required))).toEqual([]);
      }
    });

    it("offers every field the endpoint requires (a hook's url comes from Zapier's targetUrl)", () => {
      const required = Object.entries(input.shape)
        .filter(([, schema]) => !optional(schema as z.ZodType))
        .map(([key]) => key);
      const offered = new Set([...op.inputFields.map((f) => f.key), ...(op.kind === 'hook' ? ['url'] : [])]);
      expect(required.filter((key) => !offered.has(key))).toEqual([]);
    });
  });
});
