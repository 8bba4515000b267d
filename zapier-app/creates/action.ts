import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ActionOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../fields/input-data.ts';
import { zapierInputField } from '../fields/input-fields.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { callPagerly } from '../pagerly-client.ts';

/** A Zapier create from a shared action description: call its endpoint, return its answer. */
export function createFrom(operation: ActionOperation) {
  return {
    key: operation.key,
    noun: operation.noun,
    display: { label: operation.label, description: operation.description },
    operation: {
      inputFields: operation.inputFields.map(zapierInputField),
      perform: async (z: ZObject, bundle: Bundle) =>
        callPagerly(z, bundle, operation.endpoint, endpointInput(operation.inputFields, bundle.inputData) as never),
      outputFields: zapierOutputFields(operation.outputFields),
      sample: operation.sample,
    },
  };
}
