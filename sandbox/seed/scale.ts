import type { Seed } from './schema.ts';

/** What a scale seed is made of; `keys` API keys of the same admin, so each surface of a bench can have its own rate-limit window. */
export interface ScaleSeedOptions {
  readonly teams: number;
  readonly keys?: number;
}

/** The API keys a scale seed gives, in order: fake, readable on purpose, they open nothing but a local sandbox. */
export const scaleKey = (index: number) => `scale-sandbox-key-${String(index).padStart(4, '0')}`;

/**
 * One organization the size of a large company: `teams` teams with two people on call in each,
 * and as many people as teams, so that everyone is on call in two teams (team i puts person i
 * and person i+1 on call: two layers of one participant each, so they stay on call whatever
 * the clock). It is the case where summing up everyone in every result grew with the square of
 * the people, and where a person listed once per team shows twice.
 */
export function scaleSeed({ teams, keys = 1 }: ScaleSeedOptions): Seed {
  const people = Array.from({ length: teams }, (_, i) => ({
    id: `usr_${i}`,
    name: `Person ${i}`,
    email: `person.${i}@scale.example`,
    imageurl: `https://images.scale.example/${i}.png`,
    phone: null,
    role: i === 0 ? ('owner' as const) : ('user' as const),
  }));
  const start = '2026-11-02T00:00:00Z';
  const rotations = Array.from({ length: teams }, (_, i) => [
    { id: `rot_${i}_a`, teamId: `team_${i}`, participants: [`usr_${i}`], start, shiftHours: 12 },
    { id: `rot_${i}_b`, teamId: `team_${i}`, participants: [`usr_${(i + 1) % teams}`], start, shiftHours: 12 },
  ]).flat();
  return {
    clockStart: '2026-11-02T08:00:00Z',
    organizations: [
      {
        id: 'org_scale',
        name: 'Scale',
        people,
        apiKeys: Array.from({ length: keys }, (_, k) => ({ key: scaleKey(k), personId: 'usr_0' })),
        teams: Array.from({ length: teams }, (_, i) => ({ id: `team_${i}`, name: `Team ${String(i).padStart(4, '0')}` })),
        rotations,
      },
    ],
  };
}
