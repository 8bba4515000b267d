import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { ACTION_NODE, ICON_FILES, TRIGGER_NODE } from '../names.ts';
import { ICON_DARK_SVG, ICON_SVG } from './icon.ts';
import { codex, ESLINT_CONFIG, GITIGNORE, packageJson, paths, TSCONFIG } from './package-files.ts';
import { readme } from './readme.ts';
import { repositoryFiles } from './repository-files.ts';
import { RUNTIME_DECLARATIONS } from './runtime-types.ts';
import { actionNodeSource, credentialSource, triggerNodeSource } from './sources.ts';

/** The generated package: path (relative to dist/n8n/) → JSON value or text. Building adds the runtime and dist/. */
export type N8nPackageFiles = Map<string, unknown>;

/**
 * Every source file of the n8n package, as `n8n-node new` lays a package out, from the shared
 * descriptions (the real ones unless a test gives others). Nothing in it points outside the
 * package: the nodes import n8n-workflow and the runtime the build bundles into
 * nodes/shared/runtime.js, whose types are written here.
 */
export function generateN8nPackage(operations: readonly Operation[] = allOperations): N8nPackageFiles {
  const files: N8nPackageFiles = new Map();
  files.set('package.json', packageJson());
  files.set('README.md', readme(operations));
  files.set('tsconfig.json', TSCONFIG);
  files.set('eslint.config.mjs', ESLINT_CONFIG);
  files.set('.gitignore', GITIGNORE);
  files.set(paths.actionSource, actionNodeSource(operations));
  files.set(paths.triggerSource, triggerNodeSource(operations));
  files.set(paths.credentialSource, credentialSource());
  files.set(paths.runtimeTypes, RUNTIME_DECLARATIONS);
  const icons = (folder: string) => {
    files.set(`${folder}/${ICON_FILES.light}`, ICON_SVG);
    files.set(`${folder}/${ICON_FILES.dark}`, ICON_DARK_SVG);
  };
  for (const node of [ACTION_NODE, TRIGGER_NODE]) {
    files.set(`nodes/${node.className}/${node.className}.node.json`, codex(node.name));
    icons(`nodes/${node.className}`);
  }
  icons('credentials');
  // The package is the root of its own repository (n8n-app/names.ts, REPOSITORY).
  for (const [path, content] of repositoryFiles()) files.set(path, content);
  return files;
}
