import { z } from 'zod';
import { EMAIL_ADDRESS_PROBLEM, isEmailAddress } from '../../shared/schemas/email-address.ts';
import { E164, knownRoles } from '../../shared/schemas/primitives.ts';

const id = z.string().trim().min(1, 'must be a non-empty id');
const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time, e.g. 2026-11-02T08:00:00Z' });

const person = z.object({
  id,
  name: z.string().min(1, 'is required'),
  email: z.string().refine(isEmailAddress, EMAIL_ADDRESS_PROBLEM),
  imageurl: z.url('must be a URL or null').nullable(),
  phone: z.string().regex(E164, 'must be in international format (E.164), e.g. +14155550123, or null').nullable(),
  role: z.enum(knownRoles, { error: `must be one of: ${knownRoles.join(', ')}` }),
});

const apiKey = z.object({
  key: z.string().min(16, 'must be at least 16 characters'),
  personId: id,
});

const team = z.object({ id, name: z.string().trim().min(1, 'is required') });

/** A layer of a team's schedule: participants take turns, one shift each, from `start` on. */
const rotation = z.object({
  id,
  teamId: id,
  participants: z.array(id),
  start: isoTime,
  shiftHours: z.number().positive('must be a positive number of hours'),
});

const organization = z.object({
  id,
  name: z.string().min(1, 'is required'),
  people: z.array(person),
  apiKeys: z.array(apiKey),
  teams: z.array(team),
  rotations: z.array(rotation),
});

/** A sandbox world. Ids are unique across the whole seed; references stay inside their organization. */
export const seedSchema = z
  .object({
    clockStart: isoTime,
    organizations: z.array(organization),
  })
  .superRefine((seed, context) => {
    const seen = { person: new Set<string>(), team: new Set<string>(), rotation: new Set<string>(), organization: new Set<string>(), key: new Set<string>() };
    const problem = (path: (string | number)[], message: string) => context.addIssue({ code: 'custom', path, message });
    const unique = (kind: keyof typeof seen, value: string, path: (string | number)[]) => {
      if (seen[kind].has(value)) problem(path, `repeats ${kind === 'key' ? 'an API key' : `the ${kind} id "${value}"`}; it must be unique in the seed`);
      seen[kind].add(value);
    };

    seed.organizations.forEach((org, o) => {
      const at = (...rest: (string | number)[]) => ['organizations', o, ...rest];
      unique('organization', org.id, at('id'));
      const people = new Set(org.people.map((p) => p.id));
      const teams = new Set(org.teams.map((t) => t.id));
      const emails = new Set<string>();
      const teamNames = new Set<string>();

      org.people.forEach((person, i) => {
        unique('person', person.id, at('people', i, 'id'));
        const email = person.email.toLowerCase();
        if (emails.has(email)) problem(at('people', i, 'email'), `repeats "${person.email}" in organization "${org.id}"`);
        emails.add(email);
      });
      if (org.people.filter((p) => p.role === 'owner').length > 1) problem(at('people'), `has more than one owner in organization "${org.id}"`);

      org.apiKeys.forEach((key, i) => {
        unique('key', key.key, at('apiKeys', i, 'key'));
        if (!people.has(key.personId)) problem(at('apiKeys', i, 'personId'), `names no person of organization "${org.id}": "${key.personId}"`);
      });

      org.teams.forEach((team, i) => {
        unique('team', team.id, at('teams', i, 'id'));
        const name = team.name.trim().toLowerCase();
        if (teamNames.has(name)) problem(at('teams', i, 'name'), `repeats the team name "${team.name}" in organization "${org.id}"`);
        teamNames.add(name);
      });

      org.rotations.forEach((rotation, i) => {
        unique('rotation', rotation.id, at('rotations', i, 'id'));
        if (!teams.has(rotation.teamId)) problem(at('rotations', i, 'teamId'), `names no team of organization "${org.id}": "${rotation.teamId}"`);
        rotation.participants.forEach((personId, j) => {
          if (!people.has(personId)) problem(at('rotations', i, 'participants', j), `names no person of organization "${org.id}": "${personId}"`);
        });
      });
    });
  });

export type Seed = z.input<typeof seedSchema>;
export type ValidSeed = z.output<typeof seedSchema>;
