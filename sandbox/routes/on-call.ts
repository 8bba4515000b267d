import { onCallUserView } from '../world/views.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { teamNamedOr404 } from './team-named-or-404.ts';

/** Teams and who is on call: the two endpoints of the rotations base. */
export const onCallRoutes = catalogRoutes('on-call routes', {
  listTeams: ({ caller, world }) => world.teamsOf(caller.organization.id).map((team) => ({ id: team.id, name: team.name })),

  listOnCallUsers: ({ input, caller, world, now }) => {
    const orgId = caller.organization.id;
    if (input.teamname === undefined) return world.onCallInOrganization(orgId, now).map(onCallUserView);
    return world.onCallIn(teamNamedOr404(world, orgId, input.teamname), now).map(onCallUserView);
  },
});
