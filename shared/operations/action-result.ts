import type { EndpointKey } from '../catalog/endpoints.ts';
import type { PagerlyClient } from '../client.ts';
import { NotFoundError } from '../errors.ts';
import type { ActionOperation } from './types.ts';

/** What an action needs of the typed client, as each platform builds it. */
export type ActionClient = Pick<PagerlyClient, 'send' | 'check'>;

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

/**
 * What an action does, as every platform runs it: an update of a replace-only endpoint reads
 * the record first (`keepsOmitted`), and an action whose goal is reached when the record is
 * already gone (`notFoundIsDone`) says so instead of failing. `given` is the endpoint input
 * from the user's fields, empty ones left out.
 */
export async function actionResult(operation: ActionOperation, given: Record<string, unknown>, client: ActionClient): Promise<unknown> {
  // Inputs are checked by the client against each endpoint's schema before sending.
  const call = (key: EndpointKey, input: Record<string, unknown>): Promise<unknown> => client.send(key, input);
  let input = given;
  if (operation.keepsOmitted) {
    // Refused before the read, as a single call would be: the key, then every field given.
    client.check(operation.endpoint, given, { partial: true });
    const identifying = Object.fromEntries(operation.inputFields.filter((field) => field.required).map((field) => [field.key, given[field.key]]));
    const current = await call(operation.keepsOmitted.read, identifying);
    input = keptWhereOmitted(operation, given, (current ?? {}) as Record<string, unknown>);
  }
  let result: unknown;
  try {
    result = await call(operation.endpoint, input);
  } catch (error) {
    // Already gone is the goal reached (Zapier's guidance for delete actions), said in the output.
    if (operation.notFoundIsDone && error instanceof NotFoundError) return { ...input, ...operation.notFoundIsDone };
    throw error;
  }
  // A create's id, or the note that none came, is the client's (created-id.ts): a 2xx is done.
  return result;
}
