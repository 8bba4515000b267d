import type { Bundle, ZObject } from 'zapier-platform-core';
import type { SearchOperation } from '../../shared/operations/types.ts';
import { shapeItem } from '../../shared/operations/item-shape.ts';
import { endpointInput } from '../fields/input-data.ts';
import { zapierInputField } from '../fields/input-fields.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { pagerlyFor, withZapierErrors } from '../pagerly-client.ts';

/** A Zapier search from a shared search description; "nothing found" is an empty result. */
export function searchFrom(operation: SearchOperation) {
  return {
    key: operation.key,
    noun: operation.noun,
    display: { label: operation.label, description: operation.description },
    operation: {
      inputFields: operation.inputFields.map(zapierInputField),
      perform: (z: ZObject, bundle: Bundle) =>
        withZapierErrors(z, async () => {
          const input = endpointInput(operation.inputFields, bundle.inputData);
          let body: unknown;
          try {
            body = await pagerlyFor(z, bundle).call(operation.endpoint, input as never);
          } catch (error) {
            if (operation.notFoundIsEmpty && error instanceof NotFoundError) return [];
            throw error;
          }
          const elements = operation.results === 'each-element' ? (Array.isArray(body) ? body : []) : [body];
          return elements.map((item) => shapeItem(operation.item, { body, item }));
        }),
      outputFields: zapierOutputFields(operation.outputFields),
      sample: operation.sample,
    },
  };
}
