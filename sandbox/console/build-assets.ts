import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import type { AssetName, ConsoleAssets } from './assets.ts';

const PAGE = new URL('./page/', import.meta.url);
const pagePath = (name: string) => new URL(name, PAGE).pathname;
/** The checkout: the bundles' metafiles name their inputs from here, as the package's own do. */
const ROOT = new URL('../../', import.meta.url).pathname;

interface Bundle {
  readonly code: Buffer;
  /** What went into it: the npm packages among its inputs owe their licence notice to the package. */
  readonly metafile: Metafile;
}

/**
 * One script of the page, bundled: the page itself (`main.ts`, a module) or the worker its tabs
 * share the feed through (`feed-worker.ts`, a classic script, as every browser with
 * SharedWorker runs one). Nothing newer than browsers of 2022 is needed.
 */
async function bundle(entry: string, format: 'esm' | 'iife'): Promise<Bundle> {
  // Loaded only here: a sandbox given prebuilt assets (the package) never needs esbuild.
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [pagePath(entry)],
    bundle: true,
    format,
    target: 'es2022',
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    metafile: true,
    outfile: 'out.js',
  });
  const file = result.outputFiles?.[0];
  if (!file) throw new Error(`esbuild wrote no bundle of the console's ${entry}`);
  return { code: Buffer.from(file.contents), metafile: result.metafile };
}

const scripts = () => Promise.all([bundle('main.ts', 'esm'), bundle('feed-worker.ts', 'iife')]);

/** The console's files, built now in memory: how a sandbox run from the repository serves them. */
export async function buildConsoleAssetsInMemory(): Promise<ConsoleAssets> {
  const [[script, worker], html, css] = await Promise.all([scripts(), readFile(pagePath('index.html')), readFile(pagePath('console.css'))]);
  return new Map<AssetName, Buffer>([
    ['index.html', html],
    ['app.js', script.code],
    ['feed-worker.js', worker.code],
    ['console.css', css],
  ]);
}

/**
 * Writes the console's prebuilt files into `outDir` (the scripts bundled, its HTML and CSS
 * copied), for a package to ship; answers what its scripts bundled (their inputs from the checkout).
 */
export async function buildConsoleAssets(outDir: string): Promise<Metafile[]> {
  await mkdir(outDir, { recursive: true });
  const [script, worker] = await scripts();
  await writeFile(join(outDir, 'app.js'), script.code);
  await writeFile(join(outDir, 'feed-worker.js'), worker.code);
  await copyFile(pagePath('index.html'), join(outDir, 'index.html'));
  await copyFile(pagePath('console.css'), join(outDir, 'console.css'));
  return [script.metafile, worker.metafile];
}
