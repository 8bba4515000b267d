import rootPackage from '../../package.json' with { type: 'json' };

/**
 * The Zapier app's own package.json: its name, its version, the one dependency its bundle
 * leaves outside (zapier-platform-core, at the exact version it was built and tested against)
 * and what Zapier's runtime reads. It is written beside the bundle and is also the only
 * package.json the bundle holds (bundle.ts serves it for the app's `../package.json` import), so
 * nothing of the repository's manifest (scripts, devDependencies, other surfaces' packages)
 * ships to Zapier.
 */
export function appPackage() {
  return {
    name: 'pagerly-zapier',
    version: rootPackage.version,
    description: 'Zapier integration for Pagerly on-call and incident management (built from the pagerly-connectors repository).',
    private: true,
    license: 'MIT',
    main: 'index.js',
    engines: { node: '>=22' },
    dependencies: { 'zapier-platform-core': rootPackage.dependencies['zapier-platform-core'] },
  };
}
