import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeGeneratedFiles } from '../surfaces/write-files.ts';
import { generateN8nPackage } from './generator/generate.ts';
import { paths } from './generator/package-files.ts';

/** Where `npm run build` writes the n8n package: a community-node package, ready to install or publish. */
export const n8nPackageDir = fileURLToPath(new URL('../dist/n8n/', import.meta.url));

const runtimeEntry = fileURLToPath(new URL('./runtime/index.ts', import.meta.url));
const zodScope = fileURLToPath(new URL('./runtime/zod-scope.ts', import.meta.url));

/**
 * The runtime both nodes call, as one CommonJS file inside the package (nodes/shared/runtime.js):
 * n8n-app/runtime/ with shared/ and zod/mini, so the package needs no runtime dependency and
 * imports nothing from outside itself. n8n-workflow stays outside: the engine provides it.
 * The project's tsconfig is strict, so esbuild opens the file with "use strict".
 */
async function bundleRuntime(folder: string): Promise<void> {
  await build({
    entryPoints: [runtimeEntry],
    outfile: join(folder, paths.runtimeJs),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['n8n-workflow'],
    define: { globalThis: 'zodScope' },
    inject: [zodScope],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/**
 * What `n8n-node build` makes of the package's sources (tsc, then the icons copied), with
 * esbuild: each source to CommonJS at the same path under dist/, the runtime beside them, the
 * icons and codex files copied. The package's own tsconfig is strict, so each file opens with
 * "use strict".
 */
async function compile(folder: string, files: readonly string[]): Promise<void> {
  const sources = files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
  await build({
    entryPoints: sources.map((path) => join(folder, path)),
    outdir: join(folder, 'dist'),
    outbase: folder,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    tsconfig: join(folder, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const path of [paths.runtimeJs, ...files.filter((p) => /\.(svg|png)$|\.node\.json$/.test(p))]) {
    const target = join(folder, 'dist', path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(folder, path), target);
  }
}

export async function buildN8nApp(folder = n8nPackageDir): Promise<{ folder: string; files: number; bytes: number; bundles: Record<string, number> }> {
  const generated = generateN8nPackage();
  writeGeneratedFiles(generated, folder);
  await bundleRuntime(folder);
  await compile(folder, [...generated.keys()]);
  const bundles = Object.fromEntries(
    [paths.distRuntimeJs, paths.actionJs, paths.triggerJs, paths.credentialJs].map((path) => [path, statSync(join(folder, path)).size]),
  );
  const all = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const bytes = all.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  return { folder, files: all.length, bytes, bundles };
}
