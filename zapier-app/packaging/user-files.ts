import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { linkFile, stageDir, userEnvFile } from './paths.ts';

/** Where each file is; tests point them at a temporary folder. */
export interface UserFilePlaces {
  stageDir: string;
  linkFile: string;
  userEnvFile: string;
}
const defaultPlaces: UserFilePlaces = { stageDir, linkFile, userEnvFile };

/**
 * What users write for the Zapier app lives beside its sources, never only in dist/ (which
 * every build wipes): `zapier-app/.env` (gitignored: keys for `zapier-platform invoke`) and
 * `zapier-app/.zapierapprc` (committed: the link to the registered Zapier app).
 */

/** Rescues what a user or the Zapier CLI wrote into dist/zapier before a build wipes it. Returns what it kept. */
export function rescueUserFiles(places: UserFilePlaces = defaultPlaces): string[] {
  const { stageDir, userEnvFile } = places;
  const kept: string[] = [];
  const stagedEnv = `${stageDir}.env`;
  // An .env written there by hand (older instructions): move it beside the sources once.
  if (isRegularFile(stagedEnv) && !existsSync(userEnvFile)) {
    mkdirSync(dirname(userEnvFile), { recursive: true });
    renameSync(stagedEnv, userEnvFile);
    kept.push('moved dist/zapier/.env to zapier-app/.env');
  }
  const saved = saveAppLink(places);
  if (saved) kept.push(saved);
  return kept;
}

/**
 * `zapier-platform register`/`link` merge {id, key} into the staged .zapierapprc: copy them to
 * the committed zapier-app/.zapierapprc. Returns what it did, if anything.
 */
export function saveAppLink({ stageDir, linkFile }: UserFilePlaces = defaultPlaces): string | undefined {
  const link = readLink(`${stageDir}.zapierapprc`);
  if (!link || JSON.stringify(link) === JSON.stringify(readLink(linkFile))) return undefined;
  writeFileSync(linkFile, `${JSON.stringify(link, null, 2)}\n`);
  return `saved the link to Zapier app ${link.id} in zapier-app/.zapierapprc (commit it)`;
}

/**
 * dist/zapier/.env points at zapier-app/.env, so `npm run zapier -- invoke` reads the user's
 * file. Only when there is one: the Zapier CLI's build warns about a dangling link.
 */
export function linkUserEnv({ stageDir, userEnvFile }: UserFilePlaces = defaultPlaces): void {
  if (!existsSync(userEnvFile) || existsSync(`${stageDir}.env`)) return;
  symlinkSync(relative(stageDir, userEnvFile), `${stageDir}.env`);
}

/** The `{id, key}` of a .zapierapprc, if it has them. */
export function readLink(file: string): { id: number | string; key: string } | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const { id, key } = JSON.parse(readFileSync(file, 'utf8')) as { id?: unknown; key?: unknown };
    if ((typeof id === 'number' || typeof id === 'string') && typeof key === 'string') return { id, key };
  } catch {
    // A broken file holds no link worth keeping; the build says nothing about it rather than fail.
  }
  return undefined;
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}
