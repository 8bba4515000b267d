import type { ActionOperation, SearchOperation } from '../../shared/operations/types.ts';
import { zapierInputField, type ZapierInputField } from './input-fields.ts';
import { zapierOutputFields } from './output-fields.ts';
import { zapierDisplay, zapierName } from '../operation-names.ts';

/**
 * A `copy` field is text shown above the inputs, nothing the user fills in: Zapier asks delete
 * actions for one that says the action cannot be undone (docs.zapier.com/platform/build/action, "Delete actions").
 */
const irreversibleNote = (text: string): ZapierInputField => ({
  key: 'irreversible',
  label: 'Cannot be undone',
  type: 'copy',
  required: false,
  helpText: text,
});

/** What every Zapier create and search shares, from its shared description; `perform` is the caller's. */
export function operationEnvelope<P>(operation: ActionOperation | SearchOperation, perform: P) {
  const irreversible = operation.kind === 'action' && operation.irreversible ? [irreversibleNote(operation.irreversible)] : [];
  const display = zapierDisplay(operation);
  return {
    key: zapierName(operation).key,
    noun: operation.noun,
    display,
    operation: {
      inputFields: [...irreversible, ...operation.inputFields.map(zapierInputField)],
      perform,
      outputFields: zapierOutputFields(operation.outputFields),
      sample: operation.sample,
    },
  };
}
