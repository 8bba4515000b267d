import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_NAME } from '../names.ts';

/**
 * Puts the built package where n8n keeps the community packages it installs
 * (`<user folder>/.n8n/nodes/node_modules/<name>`, as n8n's manual install does with npm), so
 * n8n loads it under its package name at start: `n8n-nodes-pagerly.pagerly`, the type users'
 * workflows and the templates name. (A custom extensions folder names the same node
 * `CUSTOM.pagerly`.) Only what the package publishes: package.json and dist/.
 */
export function installAsCommunityPackage(userFolder: string, packageDir: string): string {
  const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
  mkdirSync(target, { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(target, 'package.json'));
  cpSync(join(packageDir, 'dist'), join(target, 'dist'), { recursive: true });
  return target;
}
