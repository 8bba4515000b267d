import { describe, expect, it } from '@jest/globals';
import { actionNodeDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { DYNAMIC_HELP_SUFFIX, DYNAMIC_LABEL_SUFFIX, UNSET_CHOICE } from '../../n8n-app/generator/properties.ts';
import { description as n8nDescription, titleCase } from '../../n8n-app/generator/wording.ts';
import { n8nNodeName } from '../../n8n-app/operation-names.ts';
import { operations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import App from '../../zapier-app/index.ts';
import { zapierName } from '../../zapier-app/operation-names.ts';
import { fromZapier, type Loose, type NeutralField, zapierOperations } from '../support/zapier-neutral-form.ts';

/**
 * The n8n nodes against the Zapier definitions (and so the Make app, which its parity test holds
 * to the same): each is read back into one neutral form, after n8n's own wording rules, which
 * its lint enforces.
 */

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

function fromN8n(op: Operation): N8nView {
  const { resource, operation } = n8nNodeName(op);
  const option = n8nProperties
    .find((p) => p.name === 'operation' && p.displayOptions.show.resource[0] === resource)!
    .options.find((o: Loose) => o.value === operation);
  const fields = n8nProperties.filter((p) => p.displayOptions?.show.operation?.includes(operation) && p.displayOptions.show.resource.includes(resource));
  return { label: option.name, description: option.description, fields: fields.map(n8nField) };
}

function zapierInN8nWords(key: string): N8nView {
  const { description, fields } = fromZapier(zapierOperations[key]!);
  return { label: zapierOperations[key]!.display.label, description: n8nDescription(description), fields: fields.map(inN8nWords) };
}

describe('parity of the n8n nodes with the Zapier (and so the Make) app', () => {
  it('offer the same operations: every Zapier create and search is an n8n operation', () => {
    const offered = n8nProperties
      .filter((p) => p.name === 'operation')
      .flatMap((p) => p.options.map((o: Loose) => o.value))
      .sort();
    expect(offered).toEqual([...Object.keys(App.creates), ...Object.keys(App.searches)].sort());
  });

  for (const operation of operations.filter((op) => op.kind === 'action' || op.kind === 'search')) {
    it(`${operation.id}: same label, description and fields (key, label, kind, required, help, choices) in n8n's words`, () => {
      expect(fromN8n(operation)).toEqual(zapierInN8nWords(zapierName(operation).key));
    });
  }

  it('the trigger asks for the same fields as the Zapier hook', () => {
    const hook = operations.find((op) => op.kind === 'hook')!;
    expect((triggerNodeDescription().properties as Loose[]).map(n8nField)).toEqual(zapierInN8nWords(zapierName(hook).key).fields);
  });

  it('notices a difference: a changed n8n help text breaks parity', () => {
    const op = operations.find((o) => o.kind === 'action')!;
    const changed = fromN8n(op);
    changed.fields[0]!.help = 'Something else';
    expect(changed).not.toEqual(zapierInN8nWords(zapierName(op).key));
  });
});
