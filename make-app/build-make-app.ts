import { fileURLToPath } from 'node:url';
import { generateMakeApp } from './generator/generate.ts';
import { writeMakeApp } from './generator/write.ts';

/** Where `npm run build` writes the Make app: open this folder in Make's VS Code editor to deploy it by hand. */
export const makeAppDir = fileURLToPath(new URL('../dist/make/', import.meta.url));

export function buildMakeApp(): { folder: string; files: number; bytes: number } {
  return { folder: makeAppDir, ...writeMakeApp(generateMakeApp(), makeAppDir) };
}
