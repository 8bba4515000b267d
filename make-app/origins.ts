// make-app/origins.json: the Make accounts the app is deployed to and the names Make gave its
// components (makecomapp.json's `origins`, with their idMapping), committed beside the app
// source as Zapier's .zapierapprc is, so a lost dist/ loses nothing. `npm run build` puts them
// into dist/make/makecomapp.json; `npm run make:deploy` writes Make's names back here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Origin } from './manifest.ts';

export const ORIGINS_FILE = fileURLToPath(new URL('./origins.json', import.meta.url));

export function readOrigins(file = ORIGINS_FILE): Origin[] {
  if (!existsSync(file)) return [];
  const origins = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(origins)) throw new Error(`${file} must hold a JSON array of origins (as in makecomapp.json).`);
  return origins as Origin[];
}

export const writeOrigins = (origins: readonly Origin[], file = ORIGINS_FILE): void => writeFileSync(file, `${JSON.stringify(origins, null, 2)}\n`);
