import type { ClientSummaries } from '../client.ts';
import type { Operation } from './types.ts';

/**
 * The wording a client made for this operation gives its errors: the operation's own summary
 * for its endpoint, where the endpoint does more than the operation (POST /o/incident creates
 * and updates: Create's errors say "Cannot create an incident", not "…, or update one by its id").
 */
export function operationSummaries(operation: Operation): ClientSummaries {
  return operation.kind === 'action' && operation.summary !== undefined ? { [operation.endpoint]: operation.summary } : {};
}
