import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AssetName, ConsoleAssets } from './assets.ts';

const PAGE = new URL('./page/', import.meta.url);
const pagePath = (name: string) => new URL(name, PAGE).pathname;
/** The page is the only code of it; the bundle needs nothing newer than browsers of 2022. */

async function bundle(): Promise<Buffer> {
  // Loaded only here: a sandbox given prebuilt assets (the package) never needs esbuild.
  const { build } = await import('esbuild');
  // The page is the only code of it; the bundle needs nothing newer than browsers of 2022.
  const result = await build({
    entryPoints: [pagePath('main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    outfile: 'app.js',
  });
  const file = result.outputFiles?.[0];
  if (!file) throw new Error('esbuild wrote no bundle of the console page');
  return Buffer.from(file.contents);
}

/** The console's files, built now in memory: how a sandbox run from the repository serves them. */
export async function buildConsoleAssetsInMemory(): Promise<ConsoleAssets> {
  const [script, html, css] = await Promise.all([bundle(), readFile(pagePath('index.html')), readFile(pagePath('console.css'))]);
  return new Map<AssetName, Buffer>([
    ['index.html', html],
    ['app.js', script],
    ['console.css', css],
  ]);
}

/** Writes the console's prebuilt files into `outDir` (the page bundled, its HTML and CSS copied), for a package to ship. */
export async function buildConsoleAssets(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'app.js'), await bundle());
  await copyFile(pagePath('index.html'), join(outDir, 'index.html'));
  await copyFile(pagePath('console.css'), join(outDir, 'console.css'));
}
