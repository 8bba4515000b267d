import { readSeedFile } from './load.ts';
import type { ValidSeed } from './schema.ts';

/**
 * The demo world: Acme (owner, admin, four users; Platform, Payments with two layers, Mobile
 * with nobody on call) and Globex (an admin and a user; Operations). Clock starts one hour
 * before the 09:00 UTC handover.
 */
export const demoSeed: ValidSeed = readSeedFile(new URL('../seeds/demo.json', import.meta.url));

function keyOf(personId: string): string {
  const key = demoSeed.organizations.flatMap((org) => org.apiKeys).find((k) => k.personId === personId)?.key;
  if (!key) throw new Error(`The demo seed has no API key for ${personId}`);
  return key;
}

/** Fake keys of the demo seed, readable on purpose: they open nothing but a local sandbox. */
export const demoKeys = {
  acmeAdmin: keyOf('usr_grace'),
  acmeUser: keyOf('usr_alan'),
  acmeOwner: keyOf('usr_ada'),
  globexAdmin: keyOf('usr_rosalind'),
} as const;
