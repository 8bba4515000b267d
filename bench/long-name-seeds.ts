// Worlds whose names are far longer than the API allows, for the console's bench
// (bench/console-long-text.ts) and its browser test: what a seed written by a script gone
// wrong, or by someone hostile, holds. The names are Thai, which has no spaces: each line break
// in it is found with a dictionary, the costliest text for a browser to lay out.
import { demoSeed, type Seed } from '../sandbox/index.ts';

/** `prefix` and a Thai name repeated, `characters` long in all (3 bytes a character in UTF-8). */
export const thaiName = (prefix: string, characters: number) => `${prefix} ${'สมชายใจดีมีสุข'.repeat(Math.ceil(characters / 14))}`.slice(0, characters);

/** 100 KB of UTF-8, in Thai characters. */
export const KB100_OF_THAI = Math.floor((100 * 1024) / 3);

/** The demo world with the Mobile team and Hedy named `characters` long. */
export function demoWithLongNames(characters: number): Seed {
  const seed = structuredClone(demoSeed) as Seed;
  seed.organizations[0]!.teams.find((team) => team.id === 'team_mobile')!.name = thaiName('Mobile', characters);
  seed.organizations[0]!.people.find((person) => person.id === 'usr_hedy')!.name = thaiName('Hedy', characters);
  return seed;
}

/** 60 teams and 60 people each named 100 KB, all on call (two in each team), in an organization named 100 KB. */
export function hostileSeed(): Seed {
  const count = 60;
  const people = Array.from({ length: count }, (_, i) => ({
    id: `usr_${i}`,
    name: thaiName(`Person ${i}`, KB100_OF_THAI),
    email: `p${i}@hostile.example`,
    imageurl: null,
    phone: null,
    role: i === 0 ? ('owner' as const) : ('user' as const),
  }));
  return {
    clockStart: demoSeed.clockStart,
    organizations: [
      {
        id: 'org_hostile',
        name: thaiName('Hostile', KB100_OF_THAI),
        people,
        apiKeys: [{ key: 'hostile-sandbox-key-0001', personId: 'usr_0' }],
        teams: people.map((_, i) => ({ id: `team_${i}`, name: thaiName(`Team ${i}`, KB100_OF_THAI) })),
        rotations: people.map((_, i) => ({
          id: `rot_${i}`,
          teamId: `team_${i}`,
          participants: [`usr_${i}`, `usr_${(i + 1) % count}`],
          start: demoSeed.clockStart,
          shiftHours: 1_000,
        })),
      },
    ],
  } as Seed;
}
