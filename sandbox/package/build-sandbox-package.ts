import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import ts from 'typescript';
import rootPackage from '../../package.json' with { type: 'json' };
import { MIT_LICENSE } from '../../surfaces/license.ts';
import { REQUIRE_IN_ESM_BANNER } from '../../surfaces/npm-package.ts';
import { bundledPackages, thirdPartyNotices, type BundledPackage } from './bundled-licences.ts';
import { SANDBOX_README } from './readme.ts';

/** Where `npm run build` writes the sandbox package, ready to pack or publish. */
export const sandboxPackageDir = fileURLToPath(new URL('../../dist/sandbox/', import.meta.url));
export const SANDBOX_PACKAGE = '@pagerly/sandbox';
export const SANDBOX_BIN = 'pagerly-sandbox';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const seeds = fileURLToPath(new URL('../seeds/', import.meta.url));

/**
 * The web console's prebuilt assets, when the checkout has the console: its module writes them
 * into a folder, which the package carries as `console/`. Looked up rather than imported, so
 * the package builds the same with or without it.
 */
export const CONSOLE_ASSETS_MODULE = new URL('../console/build-assets.ts', import.meta.url);
interface ConsoleAssetsModule {
  /** What its scripts bundled: their packages' notices go into the package's LICENSE too. */
  buildConsoleAssets(outDir: string): Promise<readonly Metafile[]>;
}

export function sandboxPackageJson(options: { console: boolean } = { console: false }) {
  return {
    name: SANDBOX_PACKAGE,
    version: rootPackage.version,
    description:
      'A local stand-in of the Pagerly on-call and incident API for tests, CI and demos: npx @pagerly/sandbox, or createSandbox() in a test suite. Node 22 and later.',
    license: 'MIT',
    keywords: ['pagerly', 'on-call', 'incident', 'sandbox', 'mock-server', 'testing'],
    repository: { type: 'git', url: 'git+https://github.com/pagerly/pagerly-connectors.git', directory: 'sandbox' },
    type: 'module',
    bin: { [SANDBOX_BIN]: `bin/${SANDBOX_BIN}.js` },
    // `default` too: Node 22.12 and later can require() an ES module, so CommonJS code (a jest
    // config, a script) gets it by require as well.
    exports: { '.': { types: './types/index.d.ts', import: './lib/index.js', default: './lib/index.js' }, './package.json': './package.json' },
    types: './types/index.d.ts',
    files: ['bin', 'lib', 'types', 'seeds', ...(options.console ? ['console'] : [])],
    // Nothing to install but itself: Fastify, zod and the rest are bundled into lib/.
    engines: { node: '>=22' },
  };
}

export interface BuiltSandboxPackage {
  readonly folder: string;
  readonly files: number;
  readonly bytes: number;
  readonly bundled: readonly BundledPackage[];
  readonly console: boolean;
}

/**
 * The sandbox as a package with no dependencies: the command (`bin/pagerly-sandbox.js`, the
 * checkout's `sandbox/cli.ts`) and the entry (`lib/index.js`, `sandbox/package/index.ts`)
 * bundled, Fastify and zod inside, their shared code in chunks under lib/; the entry's
 * declarations; the demo seed under seeds/. Every script sits one folder down, so the sandbox's
 * `../seeds/demo.json` (relative to its module) finds the seed in the package as in the checkout.
 * With `consoleAssets` (default: the console's module, when the checkout has it), the console's
 * prebuilt assets go into console/.
 */
export async function buildSandboxPackage(
  folder = sandboxPackageDir,
  { consoleAssets = existsSync(CONSOLE_ASSETS_MODULE) ? CONSOLE_ASSETS_MODULE : undefined }: { consoleAssets?: URL | undefined } = {},
): Promise<BuiltSandboxPackage> {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { [`bin/${SANDBOX_BIN}`]: cli, 'lib/index': entry },
    outdir: folder,
    chunkNames: 'lib/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // The command says `npx @pagerly/sandbox` where the checkout says `npm run sandbox --`.
    define: { PAGERLY_SANDBOX_PACKAGE: 'true' },
    // A build tool, never a part of the package: the console is built here, and the package
    // carries its assets prebuilt (console/, found by packagedConsoleFolder()).
    external: ['esbuild'],
    // Some bundled CommonJS code calls require(); an ES module has none.
    banner: REQUIRE_IN_ESM_BANNER,
    // Half the size, with line breaks kept: an error's source line stays a line, not a megabyte.
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const binFile = join(folder, 'bin', `${SANDBOX_BIN}.js`);
  writeFileSync(binFile, `#!/usr/bin/env node\n${readFileSync(binFile, 'utf8')}`);
  chmodSync(binFile, 0o755);
  mkdirSync(join(folder, 'types'));
  writeFileSync(join(folder, 'types', 'index.d.ts'), declarationsOf(entry));
  cpSync(seeds, join(folder, 'seeds'), { recursive: true });
  const metafiles = [result.metafile];
  if (consoleAssets) {
    const { buildConsoleAssets } = (await import(consoleAssets.href)) as ConsoleAssetsModule;
    metafiles.push(...(await buildConsoleAssets(join(folder, 'console'))));
  }
  const withConsole = consoleAssets !== undefined;
  const bundled = bundledPackages(metafiles, root);
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(sandboxPackageJson({ console: withConsole }), null, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), SANDBOX_README);
  writeFileSync(join(folder, 'LICENSE'), `${MIT_LICENSE}${thirdPartyNotices(bundled)}`);
  const all = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((file) => file.isFile());
  const bytes = all.reduce((sum, file) => sum + statSync(join(file.parentPath, file.name)).size, 0);
  return { folder, files: all.length, bytes, bundled, console: withConsole };
}

/**
 * The entry's declarations, from that file alone (TypeScript's isolated declarations): its
 * types are written out in it, so the result imports nothing, and a mistake that would make
 * it import something is an error here rather than a broken package.
 */
function declarationsOf(file: string): string {
  const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, allowImportingTsExtensions: true },
    reportDiagnostics: true,
  });
  if (diagnostics?.length) {
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    throw new Error(`The declarations of ${pathToFileURL(file).href} need every export's type written out:\n${text}`);
  }
  return outputText;
}
