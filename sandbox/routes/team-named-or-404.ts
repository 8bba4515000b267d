import { noTeamNamed } from '../http/service-error.ts';
import type { Team } from '../world/records.ts';
import type { WorldState } from '../world/world.ts';

/** The organization's team of that name, or 404 (assumption `unknown-team`): never an empty answer. */
export function teamNamedOr404(world: WorldState, orgId: string, name: string): Team {
  const team = world.teamNamed(orgId, name);
  if (!team) throw noTeamNamed(name);
  return team;
}
