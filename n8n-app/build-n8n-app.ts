import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeMakeApp } from '../make-app/generator/write.ts';
import { generateN8nPackage } from './generator/generate.ts';
import { paths } from './generator/package-files.ts';
import { RUNTIME_IMPORT } from './surface.ts';

/** Where `npm run build` writes the n8n package: a community-node package, ready to install or publish. */
export const n8nPackageDir = fileURLToPath(new URL('../dist/n8n/', import.meta.url));

/**
 * Each node and the credential as one CommonJS file with everything it imports (runtime,
 * shared/, zod/mini): the package then has no runtime dependency. n8n-workflow stays
 * outside: the engine provides it, and its error classes must be the engine's own.
 */
async function bundle(folder: string, source: string, target: string): Promise<number> {
  await build({
    entryPoints: [`${folder}${source}`],
    outfile: `${folder}${target}`,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['n8n-workflow'],
    // zod keeps its settings on \`globalThis\` to share them between copies; the bundle has one
    // copy, so a module-local object serves, and the node writes nothing into n8n's globals
    // (which n8n's package scan forbids: no-restricted-globals).
    banner: { js: 'var zodScope = {};' },
    define: { globalThis: 'zodScope' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  return statSync(`${folder}${target}`).size;
}

export async function buildN8nApp(folder = n8nPackageDir): Promise<{ folder: string; files: number; bytes: number; bundles: Record<string, number> }> {
  const written = writeMakeApp(generateN8nPackage(RUNTIME_IMPORT), folder);
  const bundles = {
    [paths.actionJs]: await bundle(folder, paths.actionSource, paths.actionJs),
    [paths.triggerJs]: await bundle(folder, paths.triggerSource, paths.triggerJs),
    [paths.credentialJs]: await bundle(folder, paths.credentialSource, paths.credentialJs),
  };
  const bytes = written.bytes + Object.values(bundles).reduce((sum, size) => sum + size, 0);
  return { folder, files: written.files + 3, bytes, bundles };
}
