import type { Bundle, ZObject } from 'zapier-platform-core';
import { NotFoundError } from '../../shared/errors.ts';
import type { ActionOperation } from '../../shared/operations/types.ts';
import { endpointInput } from '../fields/input-data.ts';
import { operationEnvelope } from '../fields/operation-envelope.ts';
import { pagerlyFor, withZapierErrors } from '../pagerly-client.ts';

/**
 * The input of an update on a replace-only endpoint: the current record (read with the same
 * identifying fields) with the user's non-empty fields over it, so an empty field keeps its value.
 */
function keptWhereOmitted(operation: ActionOperation, given: Record<string, unknown>, current: Record<string, unknown>) {
  const kept: Record<string, unknown> = {};
  for (const { key } of operation.inputFields) {
    const value = given[key] ?? current[key];
    if (value !== undefined && value !== null && value !== '') kept[key] = value;
  }
  return kept;
}

/** A Zapier create from a shared action description: call its endpoint, return its answer. */
export const createFrom = (operation: ActionOperation) =>
  operationEnvelope(operation, (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, async () => {
      const pagerly = pagerlyFor(z, bundle);
      const given = endpointInput(operation.inputFields, bundle.inputData);
      let input = given;
      if (operation.keepsOmitted) {
        const identifying = operation.inputFields.filter((field) => field.required);
        const current = await pagerly.call(operation.keepsOmitted.read, endpointInput(identifying, bundle.inputData) as never);
        input = keptWhereOmitted(operation, given, current as Record<string, unknown>);
      }
      try {
        return await pagerly.call(operation.endpoint, input as never);
      } catch (error) {
        // Zapier's guidance for delete actions: already gone is the goal reached, said in the output, not a failed Zap.
        if (operation.notFoundIsDone && error instanceof NotFoundError) return { ...input, ...operation.notFoundIsDone };
        throw error;
      }
    }),
  );
