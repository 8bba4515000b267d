import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import rootPackage from '../../package.json' with { type: 'json' };
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { MIT_LICENSE } from '../../surfaces/license.ts';
import { bundleActionEntry } from '../build-action.ts';

/**
 * The directory sync as its own action, beside the incident one: a workflow that keeps
 * `people.csv` says `uses: pagerly/directory-sync-action@v1` with a `file`, and the event picks
 * plan or apply, as Terraform's plan-on-pull-request, apply-on-merge workflows read.
 */
export const DIRECTORY_ACTION_REPOSITORY = 'pagerly/directory-sync-action';
export const directoryActionDir = fileURLToPath(new URL('../../dist/github-action-directory/', import.meta.url));
const entry = fileURLToPath(new URL('./index.ts', import.meta.url));

export const DIRECTORY_OUTPUTS = {
  created: 'People created (applied), or to create (planned).',
  updated: 'People updated, or to update.',
  removed: 'People removed, or to remove.',
  unchanged: 'Rows already as the file says.',
  failed: 'Rows that failed (applied) or could not be looked up (planned).',
  changed: '`true` when the directory changed (applied) or would change (planned).',
  mode: '`plan` or `apply`: what this run did.',
} as const;

export function directoryActionYml(): string {
  return stringify(
    {
      name: 'Pagerly directory sync',
      description: "Keep Pagerly's on-call directory in git: plan a people file's changes on a pull request, apply them on merge.",
      author: 'Pagerly',
      branding: { icon: 'users', color: 'red' },
      inputs: {
        'api-key': {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, for the workflow author to copy.
          description: "An org admin's Pagerly API key: pass a secret (`${{ secrets.PAGERLY_API_KEY }}`). Masked in the log before anything else is read.",
          required: true,
        },
        file: { description: 'The people file in the checkout: CSV (comma, semicolon or tab), JSON or YAML.', required: false, default: 'people.csv' },
        mode: {
          description:
            '`auto`: plan on a pull request (and any event but a push to the default branch), apply on a push to the default branch. `plan` or `apply` to choose.',
          required: false,
          default: 'auto',
        },
        encoding: {
          description:
            "The file's encoding (`windows-1250`, `shift_jis`, `gb18030`, `euc-kr`, ...). Needed only for a file that is not UTF-8 whose code page cannot be told from its bytes: the run then fails, showing how each code page reads the first names that differ.",
          required: false,
        },
        comment: { description: '`false` to write the plan only to the job summary, not as a pull request comment.', required: false, default: 'true' },
        'github-token': {
          description: 'The token that writes the plan comment; used for nothing else and sent only to GITHUB_API_URL. Needs `pull-requests: write`.',
          required: false,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax.
          default: '${{ github.token }}',
        },
        'base-url': { description: 'The Pagerly API base; change it only for a proxy or a local sandbox.', required: false, default: DEFAULT_BASE_URL },
      },
      outputs: Object.fromEntries(Object.entries(DIRECTORY_OUTPUTS).map(([name, description]) => [name, { description }])),
      runs: { using: 'node24', main: 'index.js' },
    },
    { lineWidth: 0 },
  );
}

const example = fileURLToPath(new URL('../examples/directory-sync.yml', import.meta.url));

/** The README of the action's repository: the example workflow, then the inputs and outputs from action.yml. */
export function directoryActionReadme(): string {
  const metadata = parse(directoryActionYml()) as {
    inputs: Record<string, { description: string; required: boolean; default?: string }>;
    outputs: Record<string, { description: string }>;
  };
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const inputs = Object.entries(metadata.inputs).map(
    ([name, input]) =>
      `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${cell(input.description)}${input.default ? ` Default: \`${input.default}\`.` : ''} |`,
  );
  const outputs = Object.entries(metadata.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`);
  return `# Pagerly directory sync

Keep Pagerly's on-call directory in git. On a pull request this action plans the people
file's changes (nothing changes) and shows them in the job summary and in one comment, updated
on each push; on a push to the default branch it applies them.

\`\`\`yaml
${readFileSync(example, 'utf8').trimEnd()}
\`\`\`

## Inputs

| Input | Required | What it is |
| --- | --- | --- |
${inputs.join('\n')}

## Outputs

| Output | What it is |
| --- | --- |
${outputs.join('\n')}
`;
}

/** dist/github-action-directory/: action.yml, the bundle, README, package.json and the licence. */
export async function buildDirectoryAction(folder = directoryActionDir): Promise<{ folder: string; bundleBytes: number }> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'action.yml'), directoryActionYml());
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'pagerly-directory-sync-action', version: rootPackage.version, private: true, license: 'MIT', type: 'module', main: 'index.js' }, null, 2)}\n`,
  );
  writeFileSync(join(folder, 'LICENSE'), MIT_LICENSE);
  writeFileSync(join(folder, 'README.md'), directoryActionReadme());
  await bundleActionEntry(entry, join(folder, 'index.js'));
  return { folder, bundleBytes: statSync(join(folder, 'index.js')).size };
}
