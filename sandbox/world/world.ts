import type { ValidSeed } from '../seed/schema.ts';
import { ApiKeyRing } from './api-key-ring.ts';
import { IdSequences } from './ids.ts';
import { onCallInRotations } from './on-call.ts';
import type { Incident, IncidentStatus, Organization, Person, Platform, Role, Rotation, Subscription, Team } from './records.ts';

/** Read access to the world, for tests and demos (`sandbox.world`). */
export interface World {
  readonly organizations: ReadonlyMap<string, Readonly<Organization>>;
  readonly people: ReadonlyMap<string, Readonly<Person>>;
  readonly teams: ReadonlyMap<string, Readonly<Team>>;
  readonly rotations: ReadonlyMap<string, Readonly<Rotation>>;
  readonly incidents: ReadonlyMap<string, Readonly<Incident>>;
  readonly subscriptions: ReadonlyMap<string, Readonly<Subscription>>;
}

/** Who a request acts as: the key's person and organization. */
export interface Caller {
  readonly person: Person;
  readonly organization: Organization;
  /** Stands for the key (its hash) where a key must be told apart, e.g. rate limits. */
  readonly keyId: string;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Everything the sandbox knows. Lookups take the caller's organization, so a route cannot
 * reach another organization's things by accident.
 */
export class WorldState implements World {
  readonly organizations = new Map<string, Organization>();
  readonly people = new Map<string, Person>();
  readonly teams = new Map<string, Team>();
  readonly rotations = new Map<string, Rotation>();
  readonly incidents = new Map<string, Incident>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly ids = new IdSequences((id) => this.people.has(id) || this.teams.has(id) || this.incidents.has(id) || this.subscriptions.has(id));
  private readonly keys = new ApiKeyRing();
  /** Each team's layers, so a team's on-call set costs its own layers, not every rotation (20,000 teams have 40,000). */
  private readonly layersByTeam = new Map<string, Rotation[]>();
  /** Told after every change a state file keeps (subscriptions, id counters). */
  onChange: () => void = () => {};

  constructor() {
    this.ids.onChange = () => this.onChange();
  }

  static fromSeed(seed: ValidSeed): WorldState {
    const world = new WorldState();
    for (const org of seed.organizations) {
      world.organizations.set(org.id, { id: org.id, name: org.name });
      for (const person of org.people) world.people.set(person.id, { ...person, orgId: org.id });
      for (const { key, personId } of org.apiKeys) world.keys.add(key, personId);
      for (const team of org.teams) world.teams.set(team.id, { id: team.id, orgId: org.id, name: team.name });
      for (const rotation of org.rotations) {
        const layer: Rotation = {
          id: rotation.id,
          teamId: rotation.teamId,
          participants: [...rotation.participants],
          start: new Date(rotation.start),
          shiftMs: rotation.shiftHours * 3_600_000,
        };
        world.rotations.set(rotation.id, layer);
        world.layersByTeam.set(rotation.teamId, [...(world.layersByTeam.get(rotation.teamId) ?? []), layer]);
      }
    }
    return world;
  }

  authenticate(presentedKey: string): Caller | undefined {
    const found = this.keys.find(presentedKey);
    const person = found && this.people.get(found.personId);
    const organization = person && this.organizations.get(person.orgId);
    return found && person && organization ? { person, organization, keyId: found.keyId } : undefined;
  }

  // Teams and who is on call

  teamsOf(orgId: string): Team[] {
    return [...this.teams.values()].filter((team) => team.orgId === orgId);
  }

  /** Trimmed, case-insensitive exact match (assumption `unknown-team`). */
  teamNamed(orgId: string, name: string): Team | undefined {
    return this.teamsOf(orgId).find((team) => sameName(team.name, name));
  }

  onCallIn(team: Team, at: Date): Person[] {
    return this.peopleByIds(onCallInRotations(this.layersByTeam.get(team.id) ?? [], at));
  }

  /** Everybody on call in any team of the organization, each once (assumption `currentusers-all-teams`). */
  onCallInOrganization(orgId: string, at: Date): Person[] {
    const ids = new Set(this.teamsOf(orgId).flatMap((team) => this.onCallIn(team, at).map((person) => person.id)));
    return this.peopleByIds([...ids]);
  }

  private peopleByIds(ids: readonly string[]): Person[] {
    return ids.map((id) => this.people.get(id)).filter((person) => person !== undefined);
  }

  // Directory

  personByEmail(orgId: string, email: string): Person | undefined {
    return [...this.people.values()].find((person) => person.orgId === orgId && sameEmail(person.email, email));
  }

  addPerson(orgId: string, fields: { email: string; name: string; phone: string | null; role: Role }): Person {
    const person: Person = { id: this.ids.next('usr'), orgId, imageurl: null, ...fields };
    this.people.set(person.id, person);
    return person;
  }

  /** The person leaves every rotation and their keys stop working (assumption `directory-remove`). */
  removePerson(person: Person): void {
    this.people.delete(person.id);
    this.keys.revokeAllOf(person.id);
    for (const rotation of this.rotations.values()) {
      rotation.participants = rotation.participants.filter((id) => id !== person.id);
    }
  }

  // Incidents

  incidentOf(orgId: string, id: string): Incident | undefined {
    const incident = this.incidents.get(id);
    return incident?.orgId === orgId ? incident : undefined;
  }

  addIncident(
    orgId: string,
    fields: { title: string; severity: string; status: IncidentStatus; description: string | null; teamname: string | null },
    now: string,
  ): Incident {
    const incident: Incident = { id: this.ids.next('inc'), orgId, ...fields, created_at: now, updated_at: now };
    this.incidents.set(incident.id, incident);
    return incident;
  }

  // Hook subscriptions

  subscriptionOf(orgId: string, platform: Platform, id: string): Subscription | undefined {
    const subscription = this.subscriptions.get(id);
    return subscription?.orgId === orgId && subscription.platform === platform ? subscription : undefined;
  }

  addSubscription(orgId: string, fields: { platform: Platform; url: string; teamId: string | null }, now: string): Subscription {
    const subscription: Subscription = { id: this.ids.next('sub'), orgId, ...fields, created_at: now };
    this.subscriptions.set(subscription.id, subscription);
    this.onChange();
    return subscription;
  }

  /** Puts back a subscription kept from before a restart, id and all. */
  restoreSubscription(subscription: Subscription): void {
    this.subscriptions.set(subscription.id, subscription);
  }

  removeSubscription(id: string): void {
    if (this.subscriptions.delete(id)) this.onChange();
  }

  /** Subscriptions that want a change of this team: its own, and those of every team. */
  subscriptionsFor(team: Team): Subscription[] {
    return [...this.subscriptions.values()].filter((s) => s.orgId === team.orgId && (s.teamId === null || s.teamId === team.id));
  }
}
