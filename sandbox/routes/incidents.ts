import { notFound } from '../http/service-error.ts';
import { incidentView } from '../world/views.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { teamNamedOr404 } from './team-named-or-404.ts';

/** The severity the service applies when none is given (assumption `incident-fields`). */
const DEFAULT_SEVERITY = 'P3';

/** `POST /o/incident`: create without an id (201), update by id (200) (assumptions `incident-*`). */
export const incidentRoutes = catalogRoutes('incident routes', {
  createOrUpdateIncident: ({ input, caller, world, now, reply }) => {
    const orgId = caller.organization.id;
    // Stored in the team's own spelling.
    const teamname = input.teamname === undefined ? undefined : teamNamedOr404(world, orgId, input.teamname).name;
    const at = now.toISOString();

    if (input.id === undefined) {
      const incident = world.addIncident(
        orgId,
        {
          title: input.title,
          severity: input.severity ?? DEFAULT_SEVERITY,
          status: input.status ?? 'triggered',
          description: input.description ?? null,
          teamname: teamname ?? null,
        },
        at,
      );
      reply.code(201);
      return incidentView(incident);
    }

    const incident = world.incidentOf(orgId, input.id);
    if (!incident) throw notFound(`No incident with id "${input.id}" in this organization`);
    // An update changes what it was given and keeps the rest.
    incident.title = input.title;
    if (input.severity !== undefined) incident.severity = input.severity;
    if (input.status !== undefined) incident.status = input.status;
    if (input.description !== undefined) incident.description = input.description;
    if (teamname !== undefined) incident.teamname = teamname;
    incident.updated_at = at;
    return incidentView(incident);
  },
});
