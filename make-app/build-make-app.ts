import { fileURLToPath } from 'node:url';
import { generateMakeApp } from './generator/generate.ts';
import { writeGeneratedFiles } from '../surfaces/write-files.ts';
import { MANIFEST, type Manifest } from './manifest.ts';
import { readOrigins } from './origins.ts';

/** Where `npm run build` writes the Make app: open this folder in Make's VS Code editor, or `npm run make:deploy` it. */
export const makeAppDir = fileURLToPath(new URL('../dist/make/', import.meta.url));

/**
 * The origins (Make's names of the deployed components) come from make-app/origins.json, where
 * the deploy keeps them: a rebuild, even after dist/ was lost, deploys to the same app again.
 */
export function buildMakeApp(folder = makeAppDir, originsFile?: string): { folder: string; files: number; bytes: number; keptOrigins: number } {
  const files = generateMakeApp();
  const origins = readOrigins(originsFile);
  (files.get(MANIFEST) as Manifest).origins = origins;
  return { folder, keptOrigins: origins.length, ...writeGeneratedFiles(files, folder) };
}
