import type { Bundle, ZObject } from 'zapier-platform-core';
import { searchResults } from '../../shared/operations/search-results.ts';
import type { SearchOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../fields/input-data.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { pagerlyFor, withZapierErrors } from '../pagerly-client.ts';

/** A Zapier search from a shared search description; "nothing found" is an empty result. */
export const searchFrom = (operation: SearchOperation) =>
  operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, () => {
      const input = endpointInput(operation.inputFields, bundle.inputData);
      return searchResults(operation, () => pagerlyFor(z, bundle).call(operation.endpoint, input as never));
    }),
  );
