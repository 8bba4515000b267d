import type { Incident, Person, Subscription } from '../world/records.ts';
import type { WorldState } from '../world/world.ts';
import type { IncidentRow, PersonName, PersonRow, SubscriptionRow } from './messages.ts';
import { shortened } from './shorten.ts';

/** The console's rows, made from the world's records: names only, never a key, and no text longer than `FEED_TEXT_MAX`. */

/**
 * The longest text a row carries, in characters: four times the longest the API takes (a title,
 * 255), so every text the API allows goes whole. A seed or a caller may hold far longer ones (a
 * team named with 100 KB); the feed and every page of rows would then carry megabytes, and the
 * page lay them out, for a name the page shows shortened anyway.
 */
export const FEED_TEXT_MAX = 1_024;

/** `text`, or its first `FEED_TEXT_MAX` characters and `…`. */
export const boundedText = (text: string): string => shortened(text, FEED_TEXT_MAX);

const orgName = (world: WorldState, orgId: string) => boundedText(world.organizations.get(orgId)?.name ?? orgId);

/** A person or a team as a row names it. */
export const idAndName = ({ id, name }: { id: string; name: string }): PersonName => ({ id: boundedText(id), name: boundedText(name) });

export function incidentRow(world: WorldState, incident: Incident, change: IncidentRow['change']): Omit<IncidentRow, 'by'> {
  const { id, title, severity, status, teamname, created_at, updated_at } = incident;
  return {
    id: boundedText(id),
    org: orgName(world, incident.orgId),
    title: boundedText(title),
    severity: boundedText(severity),
    status: boundedText(status),
    teamname: teamname === null ? null : boundedText(teamname),
    created_at,
    updated_at,
    change,
  };
}

export function personRow(world: WorldState, person: Person, removed = false): PersonRow {
  const { id, name, email, role } = person;
  return {
    id: boundedText(id),
    org: orgName(world, person.orgId),
    name: boundedText(name),
    email: boundedText(email),
    role: boundedText(role),
    ...(removed ? { removed: true as const } : {}),
  };
}

export function subscriptionRow(
  world: WorldState,
  subscription: Subscription,
  state: SubscriptionRow['state'],
  scrub: (url: string) => string,
): SubscriptionRow {
  const { id, platform, created_at } = subscription;
  const team = subscription.teamId === null ? null : boundedText(world.teams.get(subscription.teamId)?.name ?? subscription.teamId);
  return { id, org: orgName(world, subscription.orgId), platform: boundedText(platform), url: scrub(subscription.url), team, created_at, state };
}
