import { stringify } from 'yaml';
import rootPackage from '../../package.json' with { type: 'json' };
import { inStepWords } from '../../shared/operations/step-mentions.ts';
import { MIT_LICENSE } from '../../surfaces/license.ts';
import type { GeneratedFiles, SurfaceSource } from '../../surfaces/surface.ts';
import { actionInputs, actionOperations, OUTPUTS } from '../inputs.ts';
import { ACTION_MAJOR_TAG, ACTION_NAME, ACTION_REPOSITORY, ACTION_REPOSITORY_URL, actionLabel, actionSteps, ID_OUTPUT, UPDATE_WHEN_GIVEN } from '../names.ts';

/** The file GitHub runs (action.yml `runs.main`): the runtime and everything it imports, bundled. */
export const ENTRY_FILE = 'index.js';

const words = (text: string) => inStepWords(text, actionSteps);

/** action.yml: GitHub's metadata for a JavaScript action on Node 24. */
export function actionYml(source: Pick<SurfaceSource, 'operations'>): string {
  const inputs = Object.fromEntries(
    actionInputs(source).map(({ name, description, required, default: value }) => [
      name,
      { description, required, ...(value === undefined ? {} : { default: value }) },
    ]),
  );
  const outputs = Object.fromEntries(Object.entries(OUTPUTS).map(([name, description]) => [name, { description }]));
  const metadata = {
    name: ACTION_NAME,
    description: 'Create or update a Pagerly incident from a workflow, e.g. when a deploy fails, and resolve it when it recovers.',
    author: 'Pagerly',
    branding: { icon: 'alert-triangle', color: 'red' },
    inputs,
    outputs,
    runs: { using: 'node24', main: ENTRY_FILE },
  };
  return stringify(metadata, { lineWidth: 0 });
}

/** The README of the Action's repository: what a workflow author reads on GitHub and the Marketplace. */
export function actionReadme(source: Pick<SurfaceSource, 'operations'>): string {
  const { create, update } = actionOperations(source);
  const uses = `${ACTION_REPOSITORY}@${ACTION_MAJOR_TAG}`;
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const inputRows = actionInputs(source).map(
    (input) => `| \`${input.name}\` | ${input.required ? 'yes' : 'no'} | ${cell(input.description)}${input.default ? ` Default: \`${input.default}\`.` : ''} |`,
  );
  const outputRows = Object.entries(OUTPUTS).map(([name, description]) => `| \`${name}\` | ${cell(description)} |`);
  return `# ${ACTION_NAME}

A GitHub Action that raises a Pagerly incident from a workflow and updates it later.

- **${actionLabel(create.id)}**: ${words(create.description)}
- **${actionLabel(update.id)}**: ${words(update.description)}

\`\`\`yaml
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: ./deploy.sh
      - id: incident
        if: failure()
        uses: ${uses}
        with:
          api-key: \${{ secrets.PAGERLY_API_KEY }}
          title: Deploy of \${{ github.sha }} failed
          severity: P2
          team: Platform
      - if: failure()
        run: echo "Raised \${{ steps.incident.outputs.${ID_OUTPUT} }}"
\`\`\`

To resolve it from a later run, pass the ID back with \`${UPDATE_WHEN_GIVEN}\`, the title, and \`status: resolved\`.

## Inputs

| Input | Required | What it is |
| --- | --- | --- |
${inputRows.join('\n')}

## Outputs

| Output | What it is |
| --- | --- |
${outputRows.join('\n')}

## When it fails

The step fails with the service's own reason (for example a refused key: "The API key was
refused. … API Key is not valid"), with the key taken out. The key is registered as a secret
(as is, JSON-escaped and URL-encoded) before any other input is read, so the runner masks it
in the log in every form the Action could print it. An empty \`api-key\` (a secret that is not
defined, or not given to a run from a fork) fails the step at once, naming the input, and
sends nothing.

Source: built from [pagerly-connectors](https://github.com/pagerly/pagerly-connectors) (\`npm run build\` writes this folder as
\`dist/action/\`); released to [${ACTION_REPOSITORY}](${ACTION_REPOSITORY_URL}), tagged \`${ACTION_MAJOR_TAG}\`.
`;
}

/** The Action's own package.json: ESM (the bundle is), private (released as a repository, not to npm). */
export function actionPackageJson() {
  return {
    name: 'pagerly-incident-action',
    version: rootPackage.version,
    private: true,
    description: 'Create or update a Pagerly incident from a GitHub Actions workflow.',
    license: 'MIT',
    repository: { type: 'git', url: `git+${ACTION_REPOSITORY_URL}.git` },
    type: 'module',
    main: ENTRY_FILE,
  };
}

/** Everything of dist/action/ but the bundle, which the build adds (esbuild needs the files on disk). */
export function generateAction(source: Pick<SurfaceSource, 'operations'>): GeneratedFiles {
  return new Map<string, unknown>([
    ['action.yml', actionYml(source)],
    ['README.md', actionReadme(source)],
    ['package.json', actionPackageJson()],
    // The release replaces the Action repository's tree with this folder (rsync --delete), so
    // the licence its package.json declares has to come from here or that repository has none.
    ['LICENSE', MIT_LICENSE],
  ]);
}
