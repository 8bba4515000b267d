import type { ActionOperation, SearchOperation } from '../../shared/operations/types.ts';
import { zapierInputField } from './input-fields.ts';
import { zapierOutputFields } from './output-fields.ts';

/** What every Zapier create and search shares, from its shared description; `perform` is the caller's. */
export function operationEnvelope<P>(operation: ActionOperation | SearchOperation, perform: P) {
  return {
    key: operation.key,
    noun: operation.noun,
    display: { label: operation.label, description: operation.description },
    operation: {
      inputFields: operation.inputFields.map(zapierInputField),
      perform,
      outputFields: zapierOutputFields(operation.outputFields),
      sample: operation.sample,
    },
  };
}
