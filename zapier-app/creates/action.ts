import type { Bundle, ZObject } from 'zapier-platform-core';
import { actionResult } from '../../shared/operations/action-result.ts';
import type { ActionOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../fields/input-data.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { pagerlyFor, withZapierErrors } from '../pagerly-client.ts';

/** A Zapier create from a shared action description: call its endpoint, return its answer. */
export const createFrom = (operation: ActionOperation) =>
  operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, () => {
      const pagerly = pagerlyFor(z, bundle);
      return actionResult(operation, endpointInput(operation.inputFields, bundle.inputData), pagerly);
    }),
  );
