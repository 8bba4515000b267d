import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { MANIFEST, type Manifest } from '../../make-app/manifest.ts';
import { compareReports } from '../../scripts/api/classify.ts';
import { mayShip } from '../../scripts/api/gate.ts';
import type { ApiItem, Difference, SurfaceId, SurfaceReport } from '../../scripts/api/model.ts';
import { makeItems } from '../../scripts/api/surfaces/make.ts';
import { n8nItems, n8nNodes, type NodeDescription, type Property } from '../../scripts/api/surfaces/n8n.ts';
import { zapierItems } from '../../scripts/api/surfaces/zapier.ts';
import { operations } from '../../shared/operations/index.ts';
import { zapierApp } from '../../zapier-app/index.ts';

/**
 * Changes the descriptions cannot make, because each platform's definition decides them (a
 * trigger's kind, the auth, the dedupe field, a default, a node's typeVersions): made to a copy
 * of the built definition, then read by the same extractor the check runs.
 */

type Loose = Record<string, any>;
const report = (surface: SurfaceId, items: ApiItem[]): SurfaceReport => ({ surface, items });
const summary = (differences: Difference[]) => differences.map((d) => [d.id, d.verdict, d.change]);

describe('Zapier: what its definition decides', () => {
  const app = zapierApp();
  const real = report('zapier', zapierItems(app, operations));
  const hookTrigger = app.triggers['on_call_changed'] as Loose;
  const withTrigger = (change: (trigger: Loose) => Loose) =>
    report('zapier', zapierItems({ ...app, triggers: { ...app.triggers, on_call_changed: change(hookTrigger) } } as unknown as typeof app, operations));

  it("a trigger switched from hook to polling: breaking (Zapier's promote refuses it)", () => {
    const polling = withTrigger((trigger) => ({ ...trigger, operation: { ...trigger['operation'], type: 'polling' } }));
    expect(summary(compareReports(real, polling))).toEqual([['trigger/on_call_changed', 'breaking', 'kind: "hook" → "polling"']]);
  });

  it('the field a trigger deduplicates by changed: breaking', () => {
    const primary = withTrigger((trigger) => ({
      ...trigger,
      operation: {
        ...trigger['operation'],
        outputFields: trigger['operation'].outputFields.map((field: Loose) => (field['key'] === 'team__id' ? { ...field, primary: true } : field)),
      },
    }));
    expect(summary(compareReports(real, primary))).toEqual([['trigger/on_call_changed', 'breaking', 'dedupe: "id" → "team__id"']]);
  });

  it("the auth's type changed, or its field renamed: breaking", () => {
    const auth = app.authentication as Loose;
    const oauth = report('zapier', zapierItems({ ...app, authentication: { ...auth, type: 'oauth2' } } as unknown as typeof app, operations));
    expect(summary(compareReports(real, oauth))).toEqual([['auth', 'breaking', 'kind: "custom" → "oauth2"']]);
    const renamed = { ...auth, fields: auth['fields'].map((field: Loose) => ({ ...field, key: 'api_key' })) };
    const differences = compareReports(real, report('zapier', zapierItems({ ...app, authentication: renamed } as unknown as typeof app, operations)));
    expect(summary(differences)).toEqual([
      ['auth/field/apiKey', 'breaking', 'removed (renamed to api_key?)'],
      ['auth/field/api_key', 'breaking', 'added, required, without a default'],
    ]);
  });

  it('a required input with a default, new or made so: compatible (the default fills saved steps)', () => {
    const create = app.creates['create_incident'] as Loose;
    const fields = create['operation'].inputFields as Loose[];
    const withFields = (inputFields: Loose[]) =>
      report(
        'zapier',
        zapierItems(
          { ...app, creates: { ...app.creates, create_incident: { ...create, operation: { ...create['operation'], inputFields } } } } as unknown as typeof app,
          operations,
        ),
      );
    const added = withFields([...fields, { key: 'priority', label: 'Priority', type: 'string', required: true, default: 'normal' }]);
    expect(summary(compareReports(real, added))).toEqual([['create/create_incident/input/priority', 'compatible', 'added']]);
    const madeRequired = withFields(fields.map((field) => (field['key'] === 'severity' ? { ...field, required: true, default: 'P3' } : field)));
    expect(summary(compareReports(real, madeRequired))).toEqual([
      [
        'create/create_incident/input/severity',
        'compatible',
        'default: (none) → "P3" (saved steps keep the value they were set up with); required: false → true',
      ],
    ]);
    const withoutDefault = withFields(fields.map((field) => (field['key'] === 'severity' ? { ...field, required: true } : field)));
    expect(summary(compareReports(real, withoutDefault))).toEqual([['create/create_incident/input/severity', 'breaking', 'required: false → true']]);
  });
});

describe('Make: what its definition decides', () => {
  const files = generateMakeApp();
  const real = report('make', makeItems(files, operations));

  it("an instant trigger made a polling trigger: breaking, and the advice is Make's: a new app", () => {
    const manifest = structuredClone(files.get(MANIFEST)) as Manifest;
    manifest.components.module['watchOnCallChanges']!.moduleType = 'trigger';
    const copy = new Map(files);
    copy.set(MANIFEST, manifest);
    const differences = compareReports(real, report('make', makeItems(copy, operations)));
    expect(summary(differences)).toEqual([['module/watchOnCallChanges', 'breaking', 'kind: "instant_trigger" → "trigger"']]);
    expect(differences[0]!.advice).toMatch(/applies at once to every scenario.*new app/);
  });
});

describe('n8n: a breaking change goes into a new typeVersion that keeps the old one', () => {
  const nodes = n8nNodes(operations);
  const real = report('n8n', n8nItems(operations, nodes));
  const createShown = (property: Property) =>
    property.displayOptions?.show?.['resource']?.includes('incident') && property.displayOptions.show['operation']?.includes('create');

  /** The action node with typeVersions 1 and 2: v2 renames Description to Details, v1 keeps it (n8n's `@version` in displayOptions). */
  function withVersion2(): [NodeDescription, NodeDescription] {
    const [action, trigger] = structuredClone(nodes) as [NodeDescription, NodeDescription];
    action.version = [1, 2];
    const properties = action.properties as Property[];
    const additional = properties.find((p) => p.name === 'additionalFields' && createShown(p))!;
    const v2 = structuredClone(additional);
    additional.displayOptions!.show!['@version'] = [1];
    v2.displayOptions!.show!['@version'] = [2];
    v2.options = (v2.options as Property[]).map((option) => (option.name === 'description' ? { ...option, name: 'details' } : option));
    properties.splice(properties.indexOf(additional) + 1, 0, v2);
    return [action, trigger];
  }

  it('a new typeVersion that keeps v1: compatible, v1 unchanged', () => {
    const differences = compareReports(real, report('n8n', n8nItems(operations, withVersion2())));
    expect(summary(differences)).toEqual([
      ['node/pagerly', 'compatible', 'versions: added "2"'],
      ['node/pagerly/v2', 'compatible', expect.stringMatching(/^added, with \d+ items under it$/)],
    ]);
    for (const difference of differences) expect(mayShip(difference, undefined, false)).toBe(true);
  });

  it('the same rename inside v1: breaking, the advice says to add v2 and keep v1, and a major version does not excuse it', () => {
    const [action, trigger] = withVersion2();
    // Version 1 only, with v2's parameters: the rename made in place.
    action.version = 1;
    action.properties = (action.properties as Property[])
      .filter((p) => !(p.displayOptions?.show?.['@version']?.[0] === 1))
      .map((p) => (p.displayOptions?.show?.['@version'] ? { ...p, displayOptions: { show: { resource: ['incident'], operation: ['create'] } } } : p));
    const fresh = report('n8n', n8nItems(operations, [action, trigger]));
    const differences = compareReports(real, fresh);
    const removed = differences.find((d) => d.id.endsWith('/additionalFields/description'))!;
    expect([removed.id, removed.verdict, removed.change]).toEqual([
      'node/pagerly/v1/operation/incident/create/property/additionalFields/description',
      'breaking',
      'removed (renamed to details?)',
    ]);
    expect(removed.advice).toContain('add typeVersion 2 and keep v1 (version: [1, 2]');
    // Saved workflows keep typeVersion 1 whatever the package's major version.
    expect(mayShip(removed, fresh, true)).toBe(false);
  });

  it('a typeVersion dropped: breaking, and only a major version may ship it', () => {
    const twoVersions = report('n8n', n8nItems(operations, withVersion2()));
    const differences = compareReports(twoVersions, real);
    const dropped = differences.filter((d) => d.verdict === 'breaking');
    expect(summary(dropped)).toEqual([
      ['node/pagerly', 'breaking', 'versions: removed "2"'],
      ['node/pagerly/v2', 'breaking', expect.stringMatching(/^removed, with \d+ items under it$/)],
    ]);
    for (const difference of dropped) {
      expect(mayShip(difference, real, false)).toBe(false);
      expect(mayShip(difference, real, true)).toBe(true);
    }
  });
});

describe('the gate: a breaking difference since the release ships only in a new major', () => {
  const breaking: Difference = { surface: 'zapier', id: 'create/x/input/y', kind: 'input', change: 'removed', verdict: 'breaking', advice: '' };
  const n8nFresh = report('n8n', [{ id: 'node/pagerly/v1', kind: 'node-version', facts: {} }]);
  const insideV1: Difference = { ...breaking, surface: 'n8n', id: 'node/pagerly/v1/operation/incident/create', kind: 'operation' };
  it.each([
    ['a breaking difference without a new major', breaking, false, false],
    ['a breaking difference in a new major', breaking, true, true],
    ['a compatible difference', { ...breaking, verdict: 'compatible' as const }, false, true],
    ['on n8n, a breaking difference inside a kept typeVersion, even in a new major', insideV1, true, false],
    ['on n8n, the removal of a hidden (retired) operation in a new major', { ...insideV1, retiring: true }, true, true],
    ['on n8n, the removal of a hidden (retired) operation without a new major', { ...insideV1, retiring: true }, false, false],
  ])('%s', (_name, difference, majorWentUp, allowed) => {
    expect(mayShip(difference, n8nFresh, majorWentUp)).toBe(allowed);
  });
});
