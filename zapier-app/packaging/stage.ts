import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { appPackage } from './app-package.ts';
import { BUNDLE_FILES } from './bundle.ts';
import { linkFile, stageDir } from './paths.ts';
import { linkUserEnv, readLink, rescueUserFiles } from './user-files.ts';

/**
 * The files `zapier-platform` expects beside the bundle. The app's only dependency is the
 * core at the exact version the bundle was built and tested against.
 */
export function stageApp(): string[] {
  const kept = rescueUserFiles();
  // Everything is written anew but build/, whose zip a build with the same inputs reuses.
  mkdirSync(stageDir, { recursive: true });
  for (const entry of readdirSync(stageDir)) if (entry !== 'build') rmSync(`${stageDir}${entry}`, { recursive: true, force: true });
  writeFileSync(`${stageDir}package.json`, `${JSON.stringify(appPackage(), null, 2)}\n`);
  // CLI 19.1.0's file detection misses these packages' require.mjs; the build's own check fails without them.
  // It follows requires only, so the bundle's source map is named too.
  // The link to the registered Zapier app (id, key), once `zapier-platform register` made one and it was committed.
  const link = readLink(linkFile) ?? {};
  const zapierAppRc = {
    ...link,
    includeInBuild: [
      'node_modules[\\\\/](async-function|async-generator-function|generator-function)[\\\\/]require\\.mjs$',
      `(^|[\\\\/])${BUNDLE_FILES.map.replaceAll('.', '\\.')}$`,
    ],
  };
  writeFileSync(`${stageDir}.zapierapprc`, `${JSON.stringify(zapierAppRc, null, 2)}\n`);
  // source.zip is built from what git would keep; the staged bundle is the source Zapier stores.
  writeFileSync(`${stageDir}.gitignore`, 'build/\nnode_modules/\n.env\n');
  linkUserEnv();
  return kept;
}
