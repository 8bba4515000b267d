import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { LIMIT_PARAMETER } from '../../make-app/generator/modules.ts';
import { showControlsIml } from '../../make-app/generator/iml-visible-controls.ts';
import { makeName } from '../../make-app/operation-names.ts';
import { makeDescriptionOf, makeText, sentenceCase } from '../../make-app/wording.ts';
import { codeFilePath, TEAM_RPC, WEBHOOK } from '../../make-app/generator/names.ts';
import { operations } from '../../shared/operations/index.ts';
import { zapierName } from '../../zapier-app/operation-names.ts';
import { fromZapier, type Loose, type NeutralField, type NeutralOperation, zapierOperations } from '../support/zapier-neutral-form.ts';

/**
 * The apps are generated from shared/operations; this holds the Make app to the Zapier app. Each
 * definition is read back into one neutral form, and the forms must be equal.
 */
const make = generateMakeApp();
// Generated JSON, read by path: Make's official schemas hold its shape (make:check-schemas).
const file = (path: string) => make.get(path) as Loose & Loose[];
const manifest = file('makecomapp.json');

function makeField(param: Loose): NeutralField {
  const rpc = typeof param.options === 'string';
  return {
    key: param.name,
    label: param.label,
    kind: rpc ? (param.options === `rpc://${TEAM_RPC}` ? 'team' : 'select') : param.type === 'select' ? 'select' : param.multiline ? 'multiline' : 'line',
    required: Boolean(param.required),
    help: param.help,
    choices: rpc ? [] : (param.options ?? []).map((o: Loose) => `${o.value}=${o.label}`),
  };
}

/** Make nests outputs in `spec`; Zapier flattens with `[]` (lists) and `__` (objects). */
function makeOutputs(fields: Loose[], prefix = ''): string[] {
  return fields.flatMap((f) =>
    f.spec
      ? makeOutputs(f.spec, `${prefix}${f.name}${f.type === 'array' ? '[]' : '__'}`)
      : [`${prefix}${f.name}:${f.type === 'date' ? 'datetime' : f.type === 'text' ? 'string' : f.type}`],
  );
}

function fromMake(moduleId: string, fieldsFrom: string): NeutralOperation {
  const module = manifest.components.module[moduleId];
  // A search's `limit` is Make's convention (Best practices › Search modules); Zapier has none.
  const limit = module.moduleType === 'search' ? LIMIT_PARAMETER.name : undefined;
  return {
    labelOf: operations.find((op) => makeName(op).label === module.label)?.id,
    description: module.description,
    fields: file(fieldsFrom)
      .filter((param: Loose) => param.name !== limit)
      .map(makeField),
    outputs: makeOutputs(file(module.codeFiles.interface)),
  };
}

describe('parity of the Zapier app and the Make app', () => {
  it('offer the same operations: every Zapier trigger, create and search has its Make module, and no more', () => {
    const visible = Object.values(zapierOperations)
      .filter((op) => !op.display.hidden)
      .map((op) => op.key)
      .sort();
    const withModules = operations
      .filter((op) => op.kind !== 'list')
      .map((op) => zapierName(op).key)
      .sort();
    expect(visible).toEqual(withModules);
    const modules = Object.keys(manifest.components.module)
      .filter((id) => id !== 'makeApiCall')
      .sort();
    expect(modules).toEqual(
      operations
        .filter((op) => op.kind !== 'list')
        .map((op) => makeName(op).name)
        .sort(),
    );
  });

  for (const operation of operations.filter((op) => op.kind !== 'list')) {
    it(`${operation.id}: same labels, fields (key, label, kind, required, help, choices) and outputs`, () => {
      // The hook's input fields live on the Make webhook (asked when the webhook is created).
      const moduleId = makeName(operation).name;
      const fieldsFrom = operation.kind === 'hook' ? codeFilePath('webhook', WEBHOOK, 'params') : manifest.components.module[moduleId].codeFiles.mappableParams;
      const zapier = fromZapier(zapierOperations[zapierName(operation).key]!);
      // One difference, on purpose: a search read team by team elsewhere asks one team on Make,
      // whose module makes a fixed number of requests (make-app/generator/modules.ts oneTeamOnly).
      const byTeam = operation.kind === 'search' ? operation.teamByTeam?.field : undefined;
      // And in Make's words (make-app/wording.ts): labels in sentence case, "module" for "step",
      // descriptions in the pattern of the module's type, outputs in the order of the inputs.
      const expected = {
        ...zapier,
        // Zapier words its trigger's description in a few words of its own (publishing requirements,
        // 4.1 Triggers: zapier-app/operation-names.ts); Make shows the shared description whole.
        description: makeDescriptionOf(operation.id, operation.kind === 'hook' ? operation.description : zapier.description),
        fields: zapier.fields
          .map((field) => ({ ...field, label: sentenceCase(field.label), help: makeText(field.help) }))
          .map((field) =>
            field.key === byTeam ? { ...field, required: true, help: 'The team to look up. To ask every team, run this module once per team.' } : field,
          ),
        outputs: [...zapier.outputs].sort(),
      };
      const made = fromMake(moduleId, fieldsFrom);
      expect({ ...made, outputs: [...made.outputs].sort() }).toEqual(expected);
    });
  }

  it('fill team dropdowns from the same list: the hidden Zapier trigger and the Make RPC', () => {
    const teamList = operations.find((op) => op.kind === 'list')!;
    expect(zapierOperations[zapierName(teamList).key]!.display.hidden).toBe(true);
    const rpc = file(manifest.components.rpc[TEAM_RPC].codeFiles.communication);
    // The value is the name as it came; the label shows its invisible controls (iml-visible-controls.ts).
    expect(rpc.response.output).toEqual({ label: `{{${showControlsIml('toString(item.name)')}}}`, value: '{{item.name}}' });
    expect(rpc.url).toBe('/pagerly/o/zapier/allteams');
  });

  it('every search on Make has its limit, and only that field beyond the shared ones', () => {
    const searches = Object.entries(manifest.components.module as Record<string, Loose>).filter(([, m]) => m.moduleType === 'search');
    expect(searches.length).toBeGreaterThan(0);
    for (const [id, module] of searches) {
      const shared = operations.find((op) => makeName(op).name === id)!;
      expect(file(module.codeFiles.mappableParams).map((p: Loose) => p.name)).toEqual([...shared.inputFields.map((f) => f.key), LIMIT_PARAMETER.name]);
    }
  });

  it('notices a difference: a changed Make label breaks parity', () => {
    const op = operations.find((o) => o.id === 'createIncident')!;
    const moduleId = makeName(op).name;
    const changed = fromMake(moduleId, manifest.components.module[moduleId].codeFiles.mappableParams);
    changed.fields[0]!.label = 'Headline';
    expect(changed).not.toEqual(fromZapier(zapierOperations[zapierName(op).key]!));
  });
});
