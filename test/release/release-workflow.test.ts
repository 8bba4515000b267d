import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { ACTION_MAJOR_TAG, ACTION_REPOSITORY } from '../../github-action/names.ts';
import { PINNED_ACTIONS } from '../../n8n-app/generator/repository-files.ts';
import { REPOSITORY_URL as N8N_REPOSITORY_URL } from '../../n8n-app/names.ts';
import rootPackage from '../../package.json' with { type: 'json' };

/**
 * The release workflow, checked offline: against action-validator's schema of GitHub workflows,
 * and against what a release must do (provenance, the packages it publishes and where).
 */
const run = promisify(execFile);
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');
const file = join(process.cwd(), '.github/workflows/release.yml');
const text = readFileSync(file, 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
const workflow = parse(text) as {
  on: unknown;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[]; permissions?: unknown; needs?: string | string[] }>;
};
const steps = (job: string) => workflow.jobs[job]!.steps;
const runs = (job: string) => steps(job).flatMap((step) => (step.run ? [step.run] : []));

describe('.github/workflows/release.yml', () => {
  it("holds to action-validator's workflow schema, which refuses a broken one", async () => {
    await expect(run(validator, [file])).resolves.toBeDefined();
    const temp = mkdtempSync(join(tmpdir(), 'pagerly-release-'));
    try {
      const broken = join(temp, 'release.yml');
      writeFileSync(broken, text.replace('  id-token: write\n', '  id-token: sign\n'));
      await expect(run(validator, [broken])).rejects.toThrow();
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('runs when a release is published; only the npm job may mint an OIDC token, every job reads, no more', () => {
    // https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
    // (least privilege for GITHUB_TOKEN) and https://docs.npmjs.com/generating-provenance-statements
    // (provenance needs id-token: write on the job that publishes): the n8n and Action jobs run
    // npm ci and push with another token, so an OIDC token there is only something to steal.
    expect(workflow.on).toEqual({ release: { types: ['published'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs['npm']!.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    for (const [name, job] of Object.entries(workflow.jobs)) if (name !== 'npm') expect(job.permissions).toBeUndefined();
  });

  it('runs every action at a full commit SHA, its version in a comment', () => {
    // https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
    // (Using third-party actions): a full-length SHA is the only immutable reference; a tag can
    // be moved to other code, which would then run with the npm token and id-token: write.
    const uses = Object.keys(workflow.jobs).flatMap((job) => steps(job).flatMap((step) => (step.uses ? [step.uses] : [])));
    expect(uses.length).toBeGreaterThan(0);
    for (const ref of uses) expect(ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    for (const line of text.split('\n').filter((l) => /^\s*-? ?uses: /.test(l))) expect(line).toMatch(/@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    // The n8n repository's workflows run the same actions at the same pins.
    for (const line of text.split('\n').filter((l) => /^\s*-? ?uses: /.test(l))) {
      expect(Object.values(PINNED_ACTIONS)).toContain(line.replace(/^\s*- uses: /, ''));
    }
  });

  it('publishes @pagerly/cli, @pagerly/client and @pagerly/sandbox from their dist folders, built from a clean install, with provenance', () => {
    const published = steps('npm').filter((step) => step.run?.startsWith('npm publish'));
    expect(published.map((step) => step['working-directory'])).toEqual(['dist/cli', 'dist/client', 'dist/sandbox']);
    for (const step of published) {
      expect(step.run).toBe('npm publish --provenance --access public');
      expect(step.env?.['NODE_AUTH_TOKEN']).toMatch(/^\$\{\{ secrets\.NPM_TOKEN \}\}$/);
    }
    const order = runs('npm');
    expect(order.indexOf('npm ci')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('npm ci')).toBeLessThan(order.indexOf('npm run build'));
    expect(order.indexOf('npm run build')).toBeLessThan(order.indexOf('npm publish --provenance --access public'));
    // https://docs.npmjs.com/trusted-publishers: trusted publishing needs npm 11.5.1 or later,
    // and the Node 22 set up here ships npm 10, which has no OIDC exchange.
    const upgrade = order.findIndex((line) => /^npm install -g npm@\^11\.(5\.[1-9]|[6-9])/.test(line));
    expect(upgrade).toBeGreaterThanOrEqual(0);
    expect(upgrade).toBeLessThan(order.indexOf('npm publish --provenance --access public'));
    const setup = steps('npm').find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
  });

  it('checks the tag against package.json in a job every other job needs, so a wrong tag stops them all', () => {
    // Jobs run in parallel unless one `needs` another
    // (https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idneeds):
    // a check inside the npm job alone left the n8n and Action jobs pushing tags made from a
    // wrong one (and moving the Action's v<major>) while npm refused.
    const [check, ...more] = runs('version');
    expect(more).toEqual([]);
    expect(check).toMatch(/^test "\$\{GITHUB_REF_NAME\}" = "v\$\(node -p "require\('\.\/package\.json'\)\.version"\)"$/);
    for (const [name, job] of Object.entries(workflow.jobs)) if (name !== 'version') expect([name, job.needs]).toEqual([name, 'version']);
  });

  it("hands the n8n package to its own repository, whose workflow publishes it (provenance names the publisher's repository)", () => {
    expect(text).not.toMatch(/dist\/n8n/);
    const checkout = steps('n8n').find((step) => step.with?.['repository']);
    expect(`https://github.com/${checkout?.with?.['repository']}`).toBe(N8N_REPOSITORY_URL);
    const lines = runs('n8n');
    expect(lines).toContain(`npm run n8n:repo -- ${checkout?.with?.['path']}`);
    const push = lines.find((line) => line.includes('git push'))!;
    // The tag its Publish workflow runs on: the bare version (`*.*.*`).
    expect(push).toMatch(/git tag "\$\{version\}"/);
  });

  it('pushes dist/action to the Action repository, tagged with the version and the major tag its README names', () => {
    const checkout = steps('action').find((step) => step.with?.['repository']);
    expect(checkout?.with?.['repository']).toBe(ACTION_REPOSITORY);
    const lines = runs('action');
    expect(lines.indexOf('npm ci')).toBeLessThan(lines.indexOf('npm run build'));
    expect(lines).toContain(`rsync -a --delete --exclude .git dist/action/ ${checkout?.with?.['path']}/`);
    const push = lines.find((line) => line.includes('git push'))!;
    expect(push).toMatch(/major="v\$\{version%%\.\*\}"/);
    expect(push).toMatch(/git tag -f "\$\{major\}"/);
    expect(ACTION_MAJOR_TAG).toBe(`v${rootPackage.version.split('.')[0]}`);
  });
});
