import { describe, expect, it } from '@jest/globals';
import { actionNodeDescription, POLLING_NOTICE_NAME, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { n8nWords, description as n8nDescription, titleCase } from '../../n8n-app/generator/wording.ts';
import { n8nNodeName } from '../../n8n-app/operation-names.ts';
import { operations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import App from '../../zapier-app/index.ts';
import { zapierName } from '../../zapier-app/operation-names.ts';
import { fromZapier, type Loose, type NeutralField, zapierOperations } from '../support/zapier-neutral-form.ts';

/**
 * The n8n nodes against the Zapier definitions (and so the Make app, which its parity test holds
 * to the same): each is read back into one neutral form, after n8n's own wording rules, which
 * its lint enforces, and n8n's layout (optional fields in a collection, a team as a resource
 * locator, Return All and Limit on Get Many), which the generator test holds.
 */

const n8nProperties = actionNodeDescription().properties as Loose[];
/** n8n's own parameters of a Get Many, which Zapier has no counterpart of. */
const N8N_ONLY = new Set(['returnAll', 'limit', POLLING_NOTICE_NAME]);

function n8nField(property: Loose, required = Boolean(property.required)): NeutralField {
  const team = property.type === 'resourceLocator';
  return {
    key: property.name,
    label: property.displayName,
    kind: team ? 'team' : property.type === 'options' ? 'select' : property.typeOptions?.rows ? 'multiline' : 'line',
    required,
    help: property.description ?? '',
    choices: (property.options ?? []).map((o: Loose) => `${o.value}=${o.name}`).sort(),
  };
}

/** An operation's fields as n8n shows them: its own parameters, then each collection's (optional) ones. */
const n8nFields = (shown: Loose[]): NeutralField[] =>
  shown.filter((p) => !N8N_ONLY.has(p.name)).flatMap((p) => (p.type === 'collection' ? (p.options as Loose[]).map((o) => n8nField(o, false)) : [n8nField(p)]));

/** A Zapier field as n8n words it: title-case labels, n8n's words, one-sentence help without its period. */
function inN8nWords(field: NeutralField): NeutralField {
  return {
    ...field,
    label: titleCase(field.label),
    help: n8nDescription(n8nWords(field.help)),
    choices: field.choices.map((c) => c.replace(/=(.*)$/, (_, label: string) => `=${titleCase(label)}`)).sort(),
  };
}
const byKey = (fields: NeutralField[]) => [...fields].sort((a, b) => Number(b.required) - Number(a.required) || a.key.localeCompare(b.key));

/** An operation as n8n shows it: its own label (n8n's wording of Zapier's), description and fields. */
interface N8nView {
  label: string;
  description: string;
  fields: NeutralField[];
}

function fromN8n(op: Operation): N8nView {
  const { resource, operation } = n8nNodeName(op);
  const option = n8nProperties
    .find((p) => p.name === 'operation' && p.displayOptions.show.resource[0] === resource)!
    .options.find((o: Loose) => o.value === operation);
  const fields = n8nProperties.filter((p) => p.displayOptions?.show.operation?.includes(operation) && p.displayOptions.show.resource.includes(resource));
  return { label: option.action, description: option.description, fields: byKey(n8nFields(fields)) };
}

/** A Zapier operation in n8n's words; its label is n8n's own action, from the name map. */
function zapierInN8nWords(key: string, op: Operation): N8nView {
  const { description, fields } = fromZapier(zapierOperations[key]!);
  return {
    label: op.kind === 'hook' ? '' : n8nNodeName(op).action,
    description: n8nDescription(n8nWords(description)),
    fields: byKey(fields.map(inN8nWords)),
  };
}

describe('parity of the n8n nodes with the Zapier (and so the Make) app', () => {
  it('offer the same operations: every Zapier create and search is an n8n operation', () => {
    const offered = n8nProperties
      .filter((p) => p.name === 'operation')
      .flatMap((p) => p.options.map((o: Loose) => `${p.displayOptions.show.resource[0]}:${o.value}`))
      .sort();
    const zapier = [...Object.keys(App.creates), ...Object.keys(App.searches)];
    const named = operations.filter((op) => zapier.includes(zapierName(op).key)).map((op) => `${n8nNodeName(op).resource}:${n8nNodeName(op).operation}`);
    expect(offered).toEqual(named.sort());
    expect(named.length).toBe(zapier.length);
  });

  for (const operation of operations.filter((op) => op.kind === 'action' || op.kind === 'search')) {
    it(`${operation.id}: same label, description and fields (key, label, kind, required, help, choices) in n8n's words`, () => {
      expect(fromN8n(operation)).toEqual(zapierInN8nWords(zapierName(operation).key, operation));
    });
  }

  it('the trigger asks for the same fields as the Zapier hook', () => {
    const hook = operations.find((op) => op.kind === 'hook')!;
    expect(byKey(n8nFields(triggerNodeDescription().properties as Loose[]))).toEqual(zapierInN8nWords(zapierName(hook).key, hook).fields);
  });

  it('notices a difference: a changed n8n help text breaks parity', () => {
    const op = operations.find((o) => o.kind === 'action')!;
    const changed = fromN8n(op);
    changed.fields[0]!.help = 'Something else';
    expect(changed).not.toEqual(zapierInN8nWords(zapierName(op).key, op));
  });
});
