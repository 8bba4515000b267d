import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ActionOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../fields/endpoint-input.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { callPagerly } from '../pagerly-client.ts';

/** A Zapier create from a shared action description: call its endpoint, return its answer. */
export const zapierCreate = (operation: ActionOperation) =>
  operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
    callPagerly(z, bundle, operation.endpoint, endpointInput(operation.inputFields, bundle.inputData) as never),
  );
