import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { ACTION_NODE, ICON_FILE, TRIGGER_NODE } from '../names.ts';
import { codex, ESLINT_CONFIG, packageJson, paths } from './package-files.ts';
import { ICON_SVG } from './icon.ts';
import { readme } from './readme.ts';
import { actionNodeSource, credentialSource, triggerNodeSource } from './sources.ts';

/** The generated package: path (relative to dist/n8n/) → JSON value or text. Bundling adds the JavaScript. */
export type N8nPackageFiles = Map<string, unknown>;

/**
 * Every source file of the n8n package, from the shared descriptions (the real ones unless a test gives others). `runtimeImport` is how a
 * node source (two folders down) reaches n8n-app/runtime/index.ts.
 */
export function generateN8nPackage(runtimeImport: string, operations: readonly Operation[] = allOperations): N8nPackageFiles {
  const files: N8nPackageFiles = new Map();
  files.set('package.json', packageJson());
  files.set('README.md', readme(operations));
  files.set('eslint.config.mjs', ESLINT_CONFIG);
  files.set(paths.actionSource, actionNodeSource(runtimeImport, operations));
  files.set(paths.triggerSource, triggerNodeSource(runtimeImport, operations));
  files.set(paths.credentialSource, credentialSource());
  for (const node of [ACTION_NODE, TRIGGER_NODE]) {
    for (const root of ['nodes', 'dist/nodes']) {
      files.set(`${root}/${node.className}/${node.className}.node.json`, codex(node.name));
      files.set(`${root}/${node.className}/${ICON_FILE}`, ICON_SVG);
    }
  }
  for (const root of ['credentials', 'dist/credentials']) files.set(`${root}/${ICON_FILE}`, ICON_SVG);
  return files;
}
