import { type Bundle, defineSearch, type ZObject } from 'zapier-platform-core';
import { runSearch } from '../../shared/operations/search-results.ts';
import type { SearchOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { clientForBundle, withZapierErrors } from '../pagerly-client.ts';

/** A Zapier search from a shared search description; "nothing found" is an empty result. */
export const zapierSearch = (operation: SearchOperation) =>
  defineSearch(
    operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
      withZapierErrors(z, () => {
        const input = endpointInput(operation.inputFields, bundle.inputData);
        return runSearch(operation, clientForBundle(z, bundle), input);
      }),
    ),
  );
