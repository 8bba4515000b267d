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

  it('runs when a release is published; only the npm job may mint an OIDC token, only the notes job edit the release, every job reads', () => {
    // https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
    // (least privilege for GITHUB_TOKEN) and https://docs.npmjs.com/generating-provenance-statements
    // (provenance needs id-token: write on the job that publishes): the n8n and Action jobs run
    // npm ci and push with another token, so an OIDC token there is only something to steal.
    // Editing a release's notes needs contents: write (REST "Update a release"); no other job writes.
    expect(workflow.on).toEqual({ release: { types: ['published'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs['npm']!.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(workflow.jobs['notes']!.permissions).toEqual({ contents: 'write' });
    for (const [name, job] of Object.entries(workflow.jobs)) if (name !== 'npm' && name !== 'notes') expect([name, job.permissions]).toEqual([name, undefined]);
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
    for (const [name, job] of Object.entries(workflow.jobs))
      if (name !== 'version' && name !== 'api-check') expect([name, job.needs]).toEqual([name, ['version', 'api-check']]);
  });

  it('runs npm run api:check first, in a job every other job needs: a breaking change without a new major ships nothing', () => {
    expect(workflow.jobs['api-check']!.needs).toBeUndefined();
    expect(workflow.jobs['version']!.needs).toBeUndefined();
    const lines = runs('api-check');
    expect(lines.slice(0, 2)).toEqual(['npm ci', 'npm run api:check']);
    const shippers = Object.keys(workflow.jobs).filter((name) => name !== 'version' && name !== 'api-check');
    expect(shippers.sort()).toEqual(['action', 'directory-action', 'make', 'n8n', 'notes', 'npm', 'zapier']);
    for (const name of shippers) expect(workflow.jobs[name]!.needs).toContain('api-check');
  });

  it('hands each secret only to the step that uses it, never to a whole job or the workflow', () => {
    const where: Record<string, string[]> = {};
    for (const [job, { steps: list }] of Object.entries(workflow.jobs))
      for (const step of list)
        for (const value of [...Object.values(step.env ?? {}), ...Object.values(step.with ?? {})])
          for (const [, secret] of String(value).matchAll(/secrets\.(\w+)/g)) where[secret!] = [...(where[secret!] ?? []), `${job}: ${step.run ?? step.uses}`];
    expect(where).toEqual({
      // One publish step per package: the CLI, the client and the sandbox.
      NPM_TOKEN: Array(3).fill('npm: npm publish --provenance --access public'),
      RELEASE_PUSH_TOKEN: ['n8n', 'action', 'directory-action'].map((job) => `${job}: ${steps(job).find((step) => step.with?.['repository'])!.uses}`),
      ZAPIER_DEPLOY_KEY: ['zapier: npm run zapier -- push'],
      MAKE_API_TOKEN: ['make: npm run make:deploy'],
    });
    // Every mention of a secret is one of those (none in a job's or the workflow's env).
    expect(text.match(/secrets\./g)).toHaveLength(Object.values(where).flat().length);
  });

  it('pushes the Zapier app from its build, and never promotes or migrates users', () => {
    // https://docs.zapier.com/integrations/manage/migrate: users are moved by hand, a small share
    // first, and only between versions of one major (.github/workflows/zapier-migrate.yml).
    const lines = runs('zapier');
    expect(lines).toEqual(['npm ci', 'npm run build', 'npm run zapier -- push']);
    for (const line of Object.keys(workflow.jobs).flatMap(runs)) expect(line).not.toMatch(/\b(migrate|promote)\b|zapier:migrate/);
  });

  it('deploys the Make app with make:deploy, which refuses a breaking change unless MAKE_NEW_APP names a new app', () => {
    const lines = runs('make');
    expect(lines.slice(0, 3)).toEqual(['npm ci', 'npm run build', 'npm run make:deploy']);
    const deploy = steps('make').find((step) => step.run === 'npm run make:deploy')!;
    expect(Object.keys(deploy.env ?? {}).sort()).toEqual(['MAKE_API_TOKEN', 'MAKE_APP_NAME', 'MAKE_NEW_APP', 'MAKE_ZONE']);
    expect(deploy.env?.['MAKE_NEW_APP']).toBe('${{ vars.MAKE_NEW_APP }}');
  });

  it("writes the release notes' Breaking and Compatible sections from api:check, keeping what people wrote", () => {
    const lines = runs('notes');
    expect(lines).toContain('npm run --silent api:check -- --notes > "${RUNNER_TEMP}/api-notes.md"');
    const edit = lines.find((line) => line.includes('gh release edit'))!;
    expect(edit).toMatch(/gh release view .* --json body/);
    expect(edit).toMatch(/gh release edit "\$\{GITHUB_REF_NAME\}" .*--notes-file/);
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

describe('.github/workflows/zapier-migrate.yml', () => {
  const migrateFile = join(process.cwd(), '.github/workflows/zapier-migrate.yml');
  const migrateText = readFileSync(migrateFile, 'utf8');
  const migrate = parse(migrateText) as {
    on: { workflow_dispatch: { inputs: Record<string, { required: boolean; default?: string }> } };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[]; permissions?: unknown }>;
  };
  const [job] = Object.values(migrate.jobs);

  it("holds to action-validator's schema, runs only by hand, reads and no more", async () => {
    await expect(run(validator, [migrateFile])).resolves.toBeDefined();
    expect(Object.keys(migrate.on)).toEqual(['workflow_dispatch']);
    expect(Object.keys(migrate.on.workflow_dispatch.inputs)).toEqual(['from', 'to', 'percent']);
    // https://docs.zapier.com/integrations/manage/migrate: "migrating a small portion of your existing users" first.
    expect(migrate.on.workflow_dispatch.inputs['percent']!.default).toBe('10');
    expect(migrate.permissions).toEqual({ contents: 'read' });
    expect(job!.permissions).toBeUndefined();
    for (const line of migrateText.split('\n').filter((l) => /^\s*-? ?uses: /.test(l)))
      expect(Object.values(PINNED_ACTIONS)).toContain(line.replace(/^\s*- uses: /, ''));
  });

  it('refuses to migrate across majors before anything is installed, inputs reaching the shell only as variables', async () => {
    const [check, ...rest] = job!.steps;
    expect(rest.findIndex((step) => step.run === 'npm ci')).toBeGreaterThan(0);
    // A `${{ inputs.x }}` inside a script would be spliced into it (script injection).
    for (const step of job!.steps) expect(step.run ?? '').not.toContain('${{');
    const shell = (FROM: string, TO: string) =>
      run('bash', ['-c', check!.run!], { env: { PATH: process.env.PATH ?? '', FROM, TO } }).then(
        () => 0,
        (error: { code: number; stdout: string }) => error.code,
      );
    expect(await shell('1.4.0', '2.0.0')).toBe(1);
    expect(await shell('1.4.0', '1.5.0')).toBe(0);
    expect(await shell('1.5.0', '1.4.0')).toBe(0);
  });

  it('moves the share with zapier-platform migrate in the built app, the deploy key only there', () => {
    const step = job!.steps.at(-1)!;
    expect(step.run).toBe('npm run zapier:migrate -- "${FROM}" "${TO}" "${PERCENT}"');
    expect(step.env?.['ZAPIER_DEPLOY_KEY']).toBe('${{ secrets.ZAPIER_DEPLOY_KEY }}');
    expect(migrateText.match(/secrets\./g)).toHaveLength(1);
    const lines = job!.steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(lines.indexOf('npm run build')).toBeLessThan(lines.indexOf(step.run!));
  });
});
