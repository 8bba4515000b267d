import type { ActionOperation } from './types.ts';

/**
 * A create whose output names an id: the next step maps it (to update or resolve the incident
 * later), so a success without one is no success (the shared `MissingIdError`). Applied in
 * code by `actionResult` and in IML by the Make generator.
 */
export const createsWithId = (operation: ActionOperation): boolean =>
  operation.effect === 'create' && operation.outputFields.some((field) => field.key === 'id');

/** An id a next step can use: text or a number, not empty. */
export function hasId(result: unknown): boolean {
  const id = result !== null && typeof result === 'object' ? (result as { id?: unknown }).id : undefined;
  return (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
}
