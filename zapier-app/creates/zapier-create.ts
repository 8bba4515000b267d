import { type Bundle, defineCreate, type ZObject } from 'zapier-platform-core';
import { actionResult } from '../../shared/operations/action-result.ts';
import type { ActionOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { operationSummaries } from '../../shared/operations/summaries.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { clientForBundle, withZapierErrors } from '../pagerly-client.ts';

/** A Zapier create from a shared action description: call its endpoint, return its answer. */
export const zapierCreate = (operation: ActionOperation) =>
  defineCreate(
    operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
      withZapierErrors(z, () => {
        const pagerly = clientForBundle(z, bundle, operationSummaries(operation));
        return actionResult(operation, endpointInput(operation.inputFields, bundle.inputData), pagerly);
      }),
    ),
  );
