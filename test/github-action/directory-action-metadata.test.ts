import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { directoryActionReadme, directoryActionYml } from '../../github-action/directory/build.ts';
import { modeOf } from '../../github-action/directory/run.ts';

const run = promisify(execFile);
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');
const example = join(process.cwd(), 'github-action/examples/directory-sync.yml');

describe('the directory sync action', () => {
  it("holds to action-validator's schema of action metadata", async () => {
    // action-validator 0.6.0 knows node12 to node20 for `runs.using`; GitHub runs node24.
    const temp = mkdtempSync(join(tmpdir(), 'pagerly-directory-yml-'));
    try {
      const text = directoryActionYml();
      expect(parse(text).runs).toEqual({ using: 'node24', main: 'index.js' });
      writeFileSync(join(temp, 'action.yml'), text.replace('using: node24\n', 'using: node20\n'));
      await expect(run(validator, [join(temp, 'action.yml')])).resolves.toBeDefined();
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('ships an example workflow that validates, never runs two applies at once, and comments only where it plans', async () => {
    await expect(run(validator, [example])).resolves.toBeDefined();
    const workflow = parse(readFileSync(example, 'utf8'));
    expect(workflow.concurrency.group).toContain("'apply'");
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.plan.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(workflow.jobs.apply.permissions).toEqual({ contents: 'read' });
    // docs/github-action.md shows this very file.
    expect(readFileSync(join(process.cwd(), 'docs/github-action.md'), 'utf8')).toContain(readFileSync(example, 'utf8'));
  });

  it('has a README with the example workflow and every input and output of action.yml', () => {
    const readme = directoryActionReadme();
    const metadata = parse(directoryActionYml());
    expect(readme).toContain(readFileSync(example, 'utf8').trimEnd());
    for (const name of [...Object.keys(metadata.inputs), ...Object.keys(metadata.outputs)]) expect(readme).toContain(`| \`${name}\` |`);
  });

  it('plans on a pull request and any push but to the default branch, where it applies', () => {
    const event = { repository: { default_branch: 'main' } };
    expect(modeOf('auto', { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/7/merge' }, event)).toBe('plan');
    expect(modeOf('', { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, event)).toBe('apply');
    expect(modeOf('auto', { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/feature' }, event)).toBe('plan');
    expect(modeOf('auto', { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, {})).toBe('plan');
    expect(modeOf('apply', { GITHUB_EVENT_NAME: 'workflow_dispatch' }, {})).toBe('apply');
    expect(() => modeOf('destroy', {}, {})).toThrow(/auto, plan or apply/);
  });
});
