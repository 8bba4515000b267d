import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { operations } from '../shared/operations/index.ts';
import { writeGeneratedFiles } from '../surfaces/write-files.ts';
import { REQUIRE_IN_ESM_BANNER } from '../surfaces/npm-package.ts';
import { ENTRY_FILE, generateAction } from './generator/generate.ts';

/** Where `npm run build` writes the Action: the tree the release pushes to the Action's own repository. */
export const actionDir = fileURLToPath(new URL('../dist/action/', import.meta.url));

const runtimeEntry = fileURLToPath(new URL('./runtime/index.ts', import.meta.url));

/**
 * The Action as GitHub runs it: one minified ESM file with @actions/core, the fetch transport
 * (undici inside, for a runner behind a proxy) and shared/, since a runner installs nothing for a
 * JavaScript action; minified as the CLI package is, as the runner downloads it on every job.
 * Some bundled CommonJS code calls `require` for Node's own modules, which an ES module lacks:
 * the banner gives it one.
 */
export async function buildAction(folder = actionDir): Promise<{ folder: string; files: number; bytes: number; bundleBytes: number }> {
  writeGeneratedFiles(generateAction({ operations }), folder);
  await bundleActionEntry(runtimeEntry, join(folder, ENTRY_FILE));
  const all = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const bytes = all.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  return { folder, files: all.length, bytes, bundleBytes: statSync(join(folder, ENTRY_FILE)).size };
}

/**
 * One action's entry as a runner starts it (`runs.using: node24`): one minified ESM file holding
 * everything it imports. Some bundled CommonJS code calls `require` for Node's own modules, which
 * an ES module lacks: the banner gives it one. Every action this project ships is bundled so.
 */
export async function bundleActionEntry(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    banner: REQUIRE_IN_ESM_BANNER,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
