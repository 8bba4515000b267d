import type { Surface } from '../surfaces/surface.ts';
import { zapierHookEndpoints } from './hook-endpoints.ts';
import { zapierApp } from './index.ts';
import { zapierName, zapierSteps } from './operation-names.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The Zapier app is a definition, not files: zapier-app/index.ts exports it and esbuild bundles
 * that module as the app's index.js. Its performs call the real catalog through the typed
 * client, so a catalog copy changes nothing here.
 */
export const zapierSurface: Surface = {
  name: 'Zapier',
  nameColumn: 'Zapier key',
  steps: zapierSteps,
  trigger: { hook: zapierHookEndpoints },
  nameOf: (operation) => {
    const { key, label } = zapierName(operation);
    return { names: [key], label };
  },
  generate: ({ operations }) => new Map([['index.js', zapierApp(operations)]]),
  async build() {
    const { buildZapierApp } = await import('./packaging/build-zapier-app.ts');
    const zapier = await buildZapierApp();
    const { zip } = zapier;
    return [
      `Zapier app ${zip.loaded.version}: dist/zapier/build/build.zip`,
      `  bundle app.js ${kb(zapier.bundleBytes)} (source map ${kb(zapier.mapBytes)}); zip ${kb(zip.bytes)}, ${zip.files} files`,
      `  review: ${zapier.reviewRules} rules of Zapier's publishing review and the bundle's own, no findings`,
      `  our files: ${zip.ownFiles.join(', ')}`,
      `  packages: ${zip.packages.length} (${zip.packages.join(', ')})`,
      `  loads: triggers ${zip.loaded.triggers.join(', ')}; creates ${zip.loaded.creates.join(', ')}; searches ${zip.loaded.searches.join(', ')}`,
      `  validate --without-style: ${zapier.validation.split('\n').pop()}${zapier.reused ? ' (inputs unchanged since the last build: its zip was kept)' : ''}`,
      ...zapier.kept.map((note) => `  kept your file: ${note}`),
    ];
  },
};
