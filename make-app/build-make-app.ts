import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateMakeApp } from './generator/generate.ts';
import { writeMakeApp } from './generator/write.ts';

/** Where `npm run build` writes the Make app: open this folder in Make's VS Code editor, or `npm run make:deploy` it. */
export const makeAppDir = fileURLToPath(new URL('../dist/make/', import.meta.url));

/**
 * A deploy writes the Make account's ids back into `origins` of makecomapp.json; a rebuild
 * keeps them, so the next deploy updates the same app instead of creating its parts again.
 */
function previousOrigins(folder: string): unknown[] {
  const path = `${folder}makecomapp.json`;
  if (!existsSync(path)) return [];
  const origins = (JSON.parse(readFileSync(path, 'utf8')) as { origins?: unknown }).origins;
  return Array.isArray(origins) ? origins : [];
}

export function buildMakeApp(folder = makeAppDir): { folder: string; files: number; bytes: number; keptOrigins: number } {
  const files = generateMakeApp();
  const origins = previousOrigins(folder);
  (files.get('makecomapp.json') as { origins: unknown[] }).origins = origins;
  return { folder, keptOrigins: origins.length, ...writeMakeApp(files, folder) };
}
