import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import * as z from 'zod/mini';
import { buildAction } from '../../github-action/build-action.ts';
import { actionYml } from '../../github-action/generator/generate.ts';
import { ACTION_REPOSITORY } from '../../github-action/names.ts';
import { actionItems } from '../../scripts/api/action-metadata.ts';
import type { ApiItem } from '../../scripts/api/model.ts';
import { extractor, incidentActionItems } from '../../scripts/api/surfaces/incident-action.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { incident } from '../../shared/schemas/incident.ts';
import { operations } from '../../shared/operations/index.ts';
import type { ActionOperation, Operation } from '../../shared/operations/types.ts';

/**
 * The incident Action's report holds what its built action.yml really declares, and a change
 * to a copy of the operations (a field's key renamed, an optional field made required) changes
 * the inputs it should and no other.
 */

type Metadata = { inputs: Record<string, { required: boolean; default?: string }>; outputs: Record<string, unknown>; runs: { using: string } };
const byId = (items: readonly ApiItem[]) => new Map(items.map((i) => [i.id, i]));

describe('the incident Action report against the built action.yml', () => {
  it('has every input with required and default, every output, and the runtime', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pagerly-action-api-'));
    try {
      await buildAction(folder);
      const built = parse(readFileSync(join(folder, 'action.yml'), 'utf8')) as Metadata;
      const report = await extractor.extract();
      const items = byId(report.items);
      expect(report.items.filter((i) => i.kind === 'action-input').map((i) => i.id)).toEqual(
        Object.keys(built.inputs)
          .map((name) => `input/${name}`)
          .sort(),
      );
      for (const [name, input] of Object.entries(built.inputs)) {
        expect(items.get(`input/${name}`)?.facts).toMatchObject({
          required: input.required,
          ...(input.default === undefined ? {} : { default: input.default }),
        });
        if (input.default === undefined) expect(items.get(`input/${name}`)?.facts['default']).toBeUndefined();
      }
      // The outputs themselves; the keys inside the `incident` output's JSON sit below it.
      expect(report.items.filter((i) => /^output\/[^/]+$/.test(i.id)).map((i) => i.id)).toEqual(
        Object.keys(built.outputs)
          .map((name) => `output/${name}`)
          .sort(),
      );
      expect(items.get('action')?.facts).toMatchObject({ signature: ACTION_REPOSITORY, kind: built.runs.using });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a change to a copy of the operations', () => {
  const before = byId(actionItems(actionYml({ operations }), ACTION_REPOSITORY));
  const changing = (change: (operation: ActionOperation) => ActionOperation): readonly Operation[] =>
    operations.map((operation) => (operation.id === 'createIncident' || operation.id === 'updateIncident' ? change(operation as ActionOperation) : operation));

  it("a field's key renamed is one input gone and another added", () => {
    const copy = changing((operation) => ({
      ...operation,
      inputFields: operation.inputFields.map((field) => (field.key === 'description' ? { ...field, key: 'details' } : field)),
    }));
    const after = byId(actionItems(actionYml({ operations: copy }), ACTION_REPOSITORY));
    expect(before.has('input/description')).toBe(true);
    expect(after.has('input/description')).toBe(false);
    expect(after.get('input/details')?.facts['required']).toBe(false);
    expect(after.get('input/title')).toEqual(before.get('input/title'));
  });

  it('an optional field made required in both operations makes the input required', () => {
    const copy = changing((operation) => ({
      ...operation,
      inputFields: operation.inputFields.map((field) => (field.key === 'severity' ? { ...field, required: true } : field)),
    }));
    const after = byId(actionItems(actionYml({ operations: copy }), ACTION_REPOSITORY));
    expect(before.get('input/severity')?.facts['required']).toBe(false);
    expect(after.get('input/severity')?.facts['required']).toBe(true);
  });

  it("an input's fixed choices and the incident output's keys are reported; a key removed from the answer goes", async () => {
    const real = byId(await incidentActionItems({ operations, endpoints }));
    expect(real.get('input/status')?.facts['choices']).toEqual(['acknowledged', 'resolved', 'triggered']);
    // Severities are suggestions: any label is accepted, so none is contract.
    expect(real.get('input/severity')?.facts['choices']).toBeUndefined();
    expect(real.get('output/incident/status')?.facts).toEqual({ type: 'string', required: false });
    const { status: _, ...kept } = incident.shape;
    const copy = { ...endpoints, createOrUpdateIncident: { ...endpoints.createOrUpdateIncident, output: z.looseObject(kept) } };
    const after = byId(await incidentActionItems({ operations, endpoints: copy }));
    expect(after.has('output/incident/status')).toBe(false);
    expect(after.get('output/incident/title')).toEqual(real.get('output/incident/title'));
  });

  it('reads a deprecated input as being retired', () => {
    const metadata = parse(actionYml({ operations })) as { inputs: Record<string, Record<string, unknown>> };
    metadata.inputs['team']!['deprecationMessage'] = 'Use `team-name`.';
    const after = byId(actionItems(JSON.stringify(metadata), ACTION_REPOSITORY));
    expect(after.get('input/team')?.facts).toMatchObject({ hidden: true, deprecationMessage: 'Use `team-name`.' });
  });
});
