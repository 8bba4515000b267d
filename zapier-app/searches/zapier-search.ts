import type { Bundle, ZObject } from 'zapier-platform-core';
import type { SearchOperation } from '../../shared/operations/types.ts';
import { shapeItem } from '../../shared/operations/item-shape.ts';
import { endpointInput } from '../fields/endpoint-input.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { clientForBundle, withZapierErrors } from '../pagerly-client.ts';

/** An empty success body (read as `{}`) found nothing. */
const isEmptyObject = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/** A Zapier search from a shared search description; "nothing found" is an empty result. */
export const zapierSearch = (operation: SearchOperation) =>
  operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, async () => {
      const input = endpointInput(operation.inputFields, bundle.inputData);
      let body: unknown;
      try {
        body = await clientForBundle(z, bundle).call(operation.endpoint, input as never);
      } catch (error) {
        if (operation.notFoundIsEmpty && error instanceof NotFoundError) return [];
        throw error;
      }
      const elements = operation.results === 'each-element' ? (Array.isArray(body) ? body : []) : isEmptyObject(body) ? [] : [body];
      return elements.map((item) => shapeItem(operation.item, { body, item }));
    }),
  );
