import type { EndpointKey } from '../catalog/endpoints.ts';
import type { Operation } from './types.ts';

/**
 * The endpoints an operation calls, in the order it calls them: an update of a replace-only
 * endpoint reads first, a search read team by team lists the teams first. A hook trigger's
 * calls depend on the surface (its hook pair, or the reads its poll makes): none here.
 */
export function callsOf(operation: Operation): EndpointKey[] {
  if (operation.kind === 'hook') return [];
  if (operation.kind === 'list') return [operation.endpoint];
  if (operation.kind === 'search') return operation.teamByTeam ? ['listTeams', operation.endpoint] : [operation.endpoint];
  return operation.keepsOmitted ? [operation.keepsOmitted.read, operation.endpoint] : [operation.endpoint];
}
