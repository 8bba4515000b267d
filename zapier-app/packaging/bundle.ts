import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { appPackage } from './app-package.ts';
import { entryPoint, repoRoot, stageDir } from './paths.ts';

/** How a Zapier app is bundled; the bench bundles its minimal app the same way. */
export const ZAPIER_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['zapier-platform-core'],
  minify: true,
  keepNames: true, // error names (AppError, NotFoundError, ...) must survive minification
  legalComments: 'none',
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** The files of a bundled app, beside its package.json. */
export const BUNDLE_FILES = { loader: 'index.js', app: 'app.js', map: 'app.js.map' } as const;

/**
 * What Zapier requires (package.json `main`): it turns Node's source maps on, then loads the app,
 * so a stack trace in Zapier's logs names the .ts file and line (Node reads a file's map only
 * when maps are on before that file is loaded, hence a file of its own).
 */
export const LOADER = `"use strict";\nprocess.setSourceMapsEnabled(true);\nmodule.exports = require("./${BUNDLE_FILES.app}");\n`;

/**
 * The app imports `../package.json` for its version; in the bundle that import is the app's own
 * small package.json (the one written beside it), never the repository's manifest.
 */
const ownPackageJson: Plugin = {
  name: 'zapier-app-package-json',
  setup(build) {
    const rootManifest = join(repoRoot, 'package.json');
    build.onResolve({ filter: /(^|\/)package\.json$/ }, ({ path, resolveDir }) =>
      join(resolveDir, path) === rootManifest ? { path: 'package.json', namespace: 'zapier-app-package' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zapier-app-package' }, () => ({ contents: JSON.stringify(appPackage()), loader: 'json' }));
  },
};

/**
 * The app and everything it imports (shared/, zod/mini) as one CommonJS file with its source
 * map, so Zapier's cold start loads one small file instead of resolving hundreds, and behind the
 * loader that turns source maps on. zapier-platform-core stays outside: Zapier's runtime wrapper
 * requires it from node_modules.
 */
export async function bundleApp(dir = stageDir): Promise<{ dir: string; bytes: number; mapBytes: number }> {
  const appFile = join(dir, BUNDLE_FILES.app);
  const result = await build({
    entryPoints: [entryPoint],
    outfile: appFile,
    ...ZAPIER_BUNDLE_OPTIONS,
    external: [...ZAPIER_BUNDLE_OPTIONS.external],
    // The map gives file, line and name; the sources themselves are in the repository (and in
    // the source.zip the CLI builds), so the map does not carry them and stays small.
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [ownPackageJson],
    metafile: true,
    // Zapier expects the app itself, not `{ default: app }`.
    footer: { js: 'module.exports = module.exports.default;' },
  });
  writeFileSync(join(dir, BUNDLE_FILES.loader), LOADER);
  const outputs = result.metafile.outputs;
  const bytesOf = (suffix: string) => Object.entries(outputs).find(([file]) => file.endsWith(suffix))?.[1].bytes ?? 0;
  return { dir, bytes: bytesOf(`/${BUNDLE_FILES.app}`), mapBytes: bytesOf(`/${BUNDLE_FILES.map}`) };
}
