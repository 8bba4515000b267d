import { build, type BuildOptions } from 'esbuild';
import { entryPoint, stageDir } from './paths.ts';

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

/**
 * The app and everything it imports (shared/, zod/mini) as one CommonJS file, so Zapier's
 * cold start loads one small file instead of resolving hundreds. zapier-platform-core stays
 * outside: Zapier's runtime wrapper requires it from node_modules.
 */
export async function bundleApp(file = `${stageDir}index.js`): Promise<{ file: string; bytes: number }> {
  const result = await build({
    entryPoints: [entryPoint],
    outfile: file,
    ...ZAPIER_BUNDLE_OPTIONS,
    external: [...ZAPIER_BUNDLE_OPTIONS.external],
    metafile: true,
    // Zapier requires index.js and expects the app itself, not `{ default: app }`.
    footer: { js: 'module.exports = module.exports.default;' },
  });
  return { file, bytes: result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.bytes };
}
