import { describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { LIMIT_PARAMETER, makeLabelOf } from '../../make-app/generator/modules.ts';
import { codeFilePath, TEAM_RPC, WEBHOOK } from '../../make-app/generator/names.ts';
import { operations } from '../../shared/operations/index.ts';
import App from '../../zapier-app/index.ts';
import { actionNodeDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { DYNAMIC_HELP_SUFFIX, DYNAMIC_LABEL_SUFFIX, UNSET_CHOICE } from '../../n8n-app/generator/properties.ts';
import { description as n8nDescription, titleCase } from '../../n8n-app/generator/wording.ts';
import { receiveDelivery } from '../../n8n-app/runtime/trigger.ts';
import { resourceValue } from '../../n8n-app/runtime/operations.ts';
import { EVENT_ID_HEADER } from '../../shared/schemas/on-call-change-event.ts';

/**
 * The three apps are generated from shared/operations; this holds them to it. Each platform's
 * definition is read back into one neutral form, and the forms must be equal (n8n's, after
 * n8n's own wording rules, which its lint enforces).
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
    f.spec
      ? makeOutputs(f.spec, `${prefix}${f.name}${f.type === 'array' ? '[]' : '__'}`)
      : [`${prefix}${f.name}:${f.type === 'date' ? 'datetime' : f.type === 'text' ? 'string' : f.type}`],
  );
}

function fromZapier(definition: Loose): NeutralOperation {
  return {
    labelOf: operations.find((op) => op.label === definition.display.label)?.key,
    description: definition.display.description,
    // A Zapier `copy` field is a note shown above the inputs (a delete action's warning), not a field: Make says it in the description.
    fields: (definition.operation.inputFields ?? []).filter((field: Loose) => field.type !== 'copy').map(zapierField),
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
    fields: file(fieldsFrom)
      .filter((param: Loose) => param.name !== limit)
      .map(makeField),
    outputs: makeOutputs(file(module.codeFiles.interface)),
  };
}

const zapierOperations: Record<string, Loose> = { ...App.triggers, ...App.creates, ...App.searches };

describe('parity of the Zapier app and the Make app', () => {
  it('offer the same operations: every Zapier trigger, create and search has its Make module, and no more', () => {
    const visible = Object.values(zapierOperations)
      .filter((op) => !op.display.hidden)
      .map((op) => op.key)
      .sort();
    const withModules = operations
      .filter((op) => op.kind !== 'list')
      .map((op) => op.key)
      .sort();
    expect(visible).toEqual(withModules);
    const modules = Object.keys(manifest.components.module)
      .filter((id) => id !== 'makeApiCall')
      .sort();
    expect(modules).toEqual(
      operations
        .filter((op) => op.kind !== 'list')
        .map((op) => op.makeName)
        .sort(),
    );
  });

  for (const operation of operations.filter((op) => op.kind !== 'list')) {
    it(`${operation.key} / ${operation.makeName}: same labels, fields (key, label, kind, required, help, choices) and outputs`, () => {
      // The hook's input fields live on the Make webhook (asked when the webhook is created).
      const fieldsFrom =
        operation.kind === 'hook' ? codeFilePath('webhook', WEBHOOK, 'params') : manifest.components.module[operation.makeName].codeFiles.mappableParams;
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

// ---------------------------------------------------------------------------------------------
// n8n: the Pagerly node's operations and the trigger, against the same Zapier definitions.

const n8nProperties = actionNodeDescription().properties as Loose[];

function n8nField(property: Loose): NeutralField {
  const team = Boolean(property.typeOptions?.loadOptionsMethod);
  return {
    key: property.name,
    label: property.displayName,
    kind: team ? 'team' : property.type === 'options' ? 'select' : property.typeOptions?.rows ? 'multiline' : 'line',
    required: Boolean(property.required),
    help: property.description,
    choices: (property.options ?? [])
      .filter((o: Loose) => o.value !== UNSET_CHOICE.value)
      .map((o: Loose) => `${o.value}=${o.name}`)
      .sort(),
  };
}

/** A Zapier field as n8n words it: title-case labels, a dynamic dropdown's own wording, one-sentence help without its period. */
function inN8nWords(field: NeutralField): NeutralField {
  const team = field.kind === 'team';
  return {
    ...field,
    label: `${titleCase(field.label)}${team ? DYNAMIC_LABEL_SUFFIX : ''}`,
    help: team ? `${field.help} ${DYNAMIC_HELP_SUFFIX}` : n8nDescription(field.help),
    choices: field.choices.map((c) => c.replace(/=(.*)$/, (_, label: string) => `=${titleCase(label)}`)).sort(),
  };
}

/** An operation as n8n shows it: its own label (n8n's wording of Zapier's), description and fields. */
interface N8nView {
  label: string;
  description: string;
  fields: NeutralField[];
}

function fromN8n(operation: { key: string; noun: string }): N8nView {
  const resource = resourceValue(operation.noun);
  const option = n8nProperties
    .find((p) => p.name === 'operation' && p.displayOptions.show.resource[0] === resource)!
    .options.find((o: Loose) => o.value === operation.key);
  const fields = n8nProperties.filter((p) => p.displayOptions?.show.operation?.includes(operation.key) && p.displayOptions.show.resource.includes(resource));
  return { label: option.name, description: option.description, fields: fields.map(n8nField) };
}

function zapierInN8nWords(key: string): N8nView {
  const { description, fields } = fromZapier(zapierOperations[key]!);
  return { label: zapierOperations[key]!.display.label, description: n8nDescription(description), fields: fields.map(inN8nWords) };
}

describe('parity of the n8n nodes with the Zapier (and so the Make) app', () => {
  it('offer the same operations: every Zapier create and search is an n8n operation, the hook is the n8n trigger', () => {
    const offered = n8nProperties
      .filter((p) => p.name === 'operation')
      .flatMap((p) => p.options.map((o: Loose) => o.value))
      .sort();
    expect(offered).toEqual([...Object.keys(App.creates), ...Object.keys(App.searches)].sort());
    const hook = operations.find((op) => op.kind === 'hook')!;
    expect(triggerNodeDescription().description).toBe(zapierOperations[hook.key]!.display.description);
  });

  for (const operation of operations.filter((op) => op.kind === 'action' || op.kind === 'search')) {
    it(`${operation.key}: same label, description and fields (key, label, kind, required, help, choices) in n8n's words`, () => {
      expect(fromN8n(operation)).toEqual(zapierInN8nWords(operation.key));
    });
  }

  it('the trigger asks for the same fields as the Zapier hook', () => {
    const hook = operations.find((op) => op.kind === 'hook')!;
    expect((triggerNodeDescription().properties as Loose[]).map(n8nField)).toEqual(zapierInN8nWords(hook.key).fields);
  });

  it('the trigger gives the items the Zapier trigger gives, for the same deliveries', async () => {
    const hook = operations.find((op) => op.kind === 'hook')!;
    const perform = zapierOperations[hook.key]!.operation.perform;
    const deliveries: [unknown, Record<string, string>][] = [
      [hook.sample, { [EVENT_ID_HEADER]: String(hook.sample.id) }],
      [{ ...hook.sample, id: '' }, { [EVENT_ID_HEADER]: 'evt_from_header' }],
      [{ type: 'oncall.changed', team: { name: 'Platform' } }, {}],
      [['not', 'an', 'object'], {}],
    ];
    for (const [payload, headers] of deliveries) {
      const zapier = (await perform(null, { inputData: {}, cleanedRequest: payload, rawRequest: { headers, content: JSON.stringify(payload) } })) as Loose[];
      const n8n = receiveDelivery({
        getNode: () => ({}),
        getBodyData: () => payload,
        getHeaderData: () => headers,
        getNodeParameter: (_: string, fallback: unknown) => fallback,
      });
      const withoutClock = (item: Loose) => ({ ...item, occurred_at: typeof item.occurred_at });
      expect((n8n.workflowData?.[0] ?? []).map((i) => withoutClock(i.json))).toEqual(zapier.map(withoutClock));
    }
  });

  it('notices a difference: a changed n8n help text breaks parity', () => {
    const op = operations.find((o) => o.kind === 'action')!;
    const changed = fromN8n(op);
    changed.fields[0]!.help = 'Something else';
    expect(changed).not.toEqual(zapierInN8nWords(op.key));
  });
});
