import type { OnCallUser } from '../../shared/schemas/on-call-user.ts';
import type { Incident, Person, Subscription } from './records.ts';

/** The answers' shapes, one place each, so routes and hook events agree on them. */

/** Exactly the four documented fields; `imageurl` stays null rather than disappearing. */
export const onCallUserView = (person: Person): OnCallUser => ({
  id: person.id,
  name: person.name,
  email: person.email,
  imageurl: person.imageurl,
});

/** Assumption `directory-entry`. */
export const directoryEntryView = (person: Person) => ({
  id: person.id,
  email: person.email,
  name: person.name,
  phone: person.phone,
  role: person.role,
  imageurl: person.imageurl,
});

/** Assumption `incident-response`. */
export const incidentView = (incident: Incident) => ({
  id: incident.id,
  title: incident.title,
  severity: incident.severity,
  status: incident.status,
  description: incident.description,
  teamname: incident.teamname,
  created_at: incident.created_at,
  updated_at: incident.updated_at,
});

/** Assumption `subscribe`: the team by its current name, null for every team. */
export const subscriptionView = (subscription: Subscription, teamName: string | null) => ({
  id: subscription.id,
  url: subscription.url,
  teamname: teamName,
  platform: subscription.platform,
  created_at: subscription.created_at,
});
