import type { Incident, Person, Subscription } from '../world/records.ts';
import type { WorldState } from '../world/world.ts';
import type { IncidentRow, PersonRow, SubscriptionRow } from './messages.ts';

/** The console's rows, made from the world's records: names only, never a key. */

const orgName = (world: WorldState, orgId: string) => world.organizations.get(orgId)?.name ?? orgId;

export function incidentRow(world: WorldState, incident: Incident, change: IncidentRow['change']): Omit<IncidentRow, 'by'> {
  const { id, title, severity, status, teamname, created_at, updated_at } = incident;
  return { id, org: orgName(world, incident.orgId), title, severity, status, teamname, created_at, updated_at, change };
}

export function personRow(world: WorldState, person: Person, removed = false): PersonRow {
  const { id, name, email, role } = person;
  return { id, org: orgName(world, person.orgId), name, email, role, ...(removed ? { removed: true as const } : {}) };
}

export function subscriptionRow(
  world: WorldState,
  subscription: Subscription,
  state: SubscriptionRow['state'],
  scrub: (url: string) => string,
): SubscriptionRow {
  const { id, platform, created_at } = subscription;
  const team = subscription.teamId === null ? null : (world.teams.get(subscription.teamId)?.name ?? subscription.teamId);
  return { id, org: orgName(world, subscription.orgId), platform, url: scrub(subscription.url), team, created_at, state };
}
