import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { LIMIT_PARAMETER, makeLabelOf } from '../../make-app/generator/modules.ts';
import { codeFilePath, TEAM_RPC, WEBHOOK } from '../../make-app/generator/names.ts';
import { operations } from '../../shared/operations/index.ts';
import App from '../../zapier-app/index.ts';

/**
 * Both apps are generated from shared/operations; this holds them to it. Each platform's
 * definition is read back into one neutral form, and the two forms must be equal.
 */
interface NeutralField {
  key: string;
  label: string;
  kind: 'line' | 'multiline' | 'select' | 'team';
  required: boolean;
  help: string;
  choices: string[];
}
interface NeutralOperation {
  /** The shared operation whose label this platform shows: Zapier `label`, Make `makeLabel` (sentence case, verb first). */
  labelOf: string | undefined;
  description: string;
  fields: NeutralField[];
  outputs: string[];
}

type Loose = Record<string, any>;
const make = generateMakeApp();
const file = (path: string) => make.get(path) as any;
const manifest = file('makecomapp.json');

function zapierField(field: Loose): NeutralField {
  return {
    key: field.key,
    label: field.label,
    kind: field.dynamic ? 'team' : field.choices ? 'select' : field.type === 'text' ? 'multiline' : 'line',
    required: Boolean(field.required),
    help: field.helpText,
    choices: (field.choices ?? []).map((c: Loose) => `${c.value}=${c.label}`),
  };
}

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
    f.spec ? makeOutputs(f.spec, `${prefix}${f.name}${f.type === 'array' ? '[]' : '__'}`) : [`${prefix}${f.name}:${f.type === 'date' ? 'datetime' : f.type === 'text' ? 'string' : f.type}`],
  );
}

function fromZapier(definition: Loose): NeutralOperation {
  return {
    labelOf: operations.find((op) => op.label === definition.display.label)?.key,
    description: definition.display.description,
    fields: (definition.operation.inputFields ?? []).map(zapierField),
    outputs: definition.operation.outputFields.map((f: Loose) => `${f.key}:${f.type}`),
  };
}

function fromMake(moduleId: string, fieldsFrom: string): NeutralOperation {
  const module = manifest.components.module[moduleId];
  // A search's `limit` is Make's convention (Best practices › Search modules); Zapier has none.
  const limit = module.moduleType === 'search' ? LIMIT_PARAMETER.name : undefined;
  return {
    labelOf: operations.find((op) => makeLabelOf(op) === module.label)?.key,
    description: module.description,
    fields: file(fieldsFrom).filter((param: Loose) => param.name !== limit).map(makeField),
    outputs: makeOutputs(file(module.codeFiles.interface)),
  };
}

const zapierOperations: Record<string, Loose> = { ...App.triggers, ...App.creates, ...App.searches };

describe('parity of the Zapier app and the Make app', () => {
  it('offer the same operations: every Zapier trigger, create and search has its Make module, and no more', () => {
    const visible = Object.values(zapierOperations).filter((op) => !op.display.hidden).map((op) => op.key).sort();
    const withModules = operations.filter((op) => op.kind !== 'list').map((op) => op.key).sort();
    expect(visible).toEqual(withModules);
    const modules = Object.keys(manifest.components.module).filter((id) => id !== 'makeApiCall').sort();
    expect(modules).toEqual(operations.filter((op) => op.kind !== 'list').map((op) => op.makeName).sort());
  });

  for (const operation of operations.filter((op) => op.kind !== 'list')) {
    it(`${operation.key} / ${operation.makeName}: same labels, fields (key, label, kind, required, help, choices) and outputs`, () => {
      // The hook's input fields live on the Make webhook (asked when the webhook is created).
      const fieldsFrom = operation.kind === 'hook'
        ? codeFilePath('webhook', WEBHOOK, 'params')
        : manifest.components.module[operation.makeName].codeFiles.mappableParams;
      expect(fromMake(operation.makeName, fieldsFrom)).toEqual(fromZapier(zapierOperations[operation.key]!));
    });
  }

  it('fill team dropdowns from the same list: the hidden Zapier trigger and the Make RPC', () => {
    const teamList = operations.find((op) => op.kind === 'list')!;
    expect(zapierOperations[teamList.key]!.display.hidden).toBe(true);
    const rpc = file(manifest.components.rpc[TEAM_RPC].codeFiles.communication);
    expect(rpc.response.output).toEqual({ label: '{{item.name}}', value: '{{item.name}}' });
    expect(rpc.url).toBe('/pagerly/o/zapier/allteams');
  });

  it('every search on Make has its limit, and only that field beyond the shared ones', () => {
    const searches = Object.entries(manifest.components.module as Record<string, Loose>).filter(([, m]) => m.moduleType === 'search');
    expect(searches.length).toBeGreaterThan(0);
    for (const [id, module] of searches) {
      const shared = operations.find((op) => op.makeName === id)!;
      expect(file(module.codeFiles.mappableParams).map((p: Loose) => p.name)).toEqual([...shared.inputFields.map((f) => f.key), LIMIT_PARAMETER.name]);
    }
  });

  it('notices a difference: a changed Make label breaks parity', () => {
    const op = operations.find((o) => o.key === 'create_incident')!;
    const moduleId = op.makeName;
    const changed = fromMake(moduleId, manifest.components.module[moduleId].codeFiles.mappableParams);
    changed.fields[0]!.label = 'Headline';
    expect(changed).not.toEqual(fromZapier(zapierOperations[op.key]!));
  });
});
