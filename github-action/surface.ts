import type { Surface } from '../surfaces/surface.ts';
import { generateAction } from './generator/generate.ts';
import { ACTION_OPERATIONS, ACTION_REPOSITORY, actionLabel, actionSteps, WHY_ONLY_THESE } from './names.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The GitHub Action: one step that creates an incident, or updates it when given its `id`.
 * Its runtime (github-action/runtime/) calls the real catalog through the typed client on fetch.
 */
export const githubActionSurface: Surface = {
  name: 'GitHub Action',
  nameColumn: 'GitHub Action',
  steps: actionSteps,
  only: {
    operations: ACTION_OPERATIONS,
    why: WHY_ONLY_THESE,
    provenBy:
      "test/github-action/action.test.ts (the bundle run as a runner runs it) and test/github-action/local-action.ts (npm run action:local, under @github/local-action), both against the sandbox; its requests go through the typed client on fetch, which the hostile battery drives as 'typed client (fetch)'",
  },
  nameOf: (operation) =>
    (ACTION_OPERATIONS as readonly string[]).includes(operation.id) ? { names: [ACTION_REPOSITORY], label: actionLabel(operation.id) } : { names: [] },
  generate: (source) => generateAction(source),
  async build() {
    const { buildAction } = await import('./build-action.ts');
    const { buildDirectoryAction, DIRECTORY_ACTION_REPOSITORY } = await import('./directory/build.ts');
    const built = await buildAction();
    const directory = await buildDirectoryAction();
    return [
      `GitHub Action: dist/action/ (${built.files} files, ${kb(built.bytes)}; bundle ${kb(built.bundleBytes)}), released to ${ACTION_REPOSITORY}`,
      `GitHub Action (directory sync): dist/github-action-directory/ (bundle ${kb(directory.bundleBytes)}), released to ${DIRECTORY_ACTION_REPOSITORY}`,
    ];
  },
};
