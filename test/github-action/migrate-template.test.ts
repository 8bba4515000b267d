import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENV } from '../../cli/settings.ts';
import { SOURCES } from '../../shared/directory-import/sources.ts';
import { opsgenie } from '../support/source-stand-ins/opsgenie.ts';
import { makeOrg, type OrgPerson } from '../support/source-stand-ins/org.ts';
import { type StandIn, startStandIn } from '../support/source-stand-ins/stand-in.ts';
import { MIGRATE_WORKFLOW, makeRepository, migrateWorkflow, type Repository, runMigrateJob } from './migrate-workflow.ts';

/**
 * The migration template: checked against action-validator's workflow schema, and its job run
 * step by step (migrate-workflow.ts) by bash and git against an Opsgenie stand-in: the first run
 * opens one pull request with counts only, a run with nothing new pushes nothing, a change
 * updates the same pull request, a source the default branch already matches closes it, a
 * refused key fails before anything is pushed, and after the cut-over day nothing is read.
 */
const run = promisify(execFile);
const validator = join(process.cwd(), 'node_modules/.bin/action-validator');
const KEY = 'template-test-opsgenie-key-5d1c9e';

let folder: string;
let repository: Repository;
let standIn: StandIn;
let people: OrgPerson[];
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-migrate-template-'));
  repository = makeRepository(folder);
  people = makeOrg(120, 'opsgenie');
  // A name written to notify someone and run markup: it must not reach the pull request's text.
  people[5] = { ...people[5]!, name: '@octocat <img src=x onerror=alert(1)>' };
  const vendor = opsgenie(people, KEY);
  standIn = await startStandIn({ ...vendor, route: (seen, origin) => opsgenie(people, KEY).route(seen, origin) });
});
afterAll(async () => {
  await standIn.close();
  rmSync(folder, { recursive: true, force: true });
});

const secrets = () => ({ OPSGENIE_API_KEY: KEY });
const vars = () => ({ OPSGENIE_API_URL: standIn.url });
const branchHead = () => {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', 'refs/heads/pagerly/directory-import'], {
      cwd: repository.origin,
      encoding: 'utf8',
      stdio: 'pipe',
    }).trim();
  } catch {
    return undefined;
  }
};
const fileOnBranch = (branch: string) => execFileSync('git', ['show', `${branch}:people.yaml`], { cwd: repository.origin, encoding: 'utf8' });

describe('the migration workflow template', () => {
  it("holds to action-validator's workflow schema, which refuses a broken copy", async () => {
    await expect(run(validator, [MIGRATE_WORKFLOW])).resolves.toBeDefined();
    const broken = join(folder, 'broken.yml');
    writeFileSync(broken, readFileSync(MIGRATE_WORKFLOW, 'utf8').replace('cancel-in-progress: false', 'cancel-in-progress: later'));
    await expect(run(validator, [broken])).rejects.toThrow();
  });

  it("sets each source's variables by the names the CLI reads, keys from secrets, bases from variables", () => {
    const importStep = migrateWorkflow().jobs.import.steps.find((step) => step.id === 'import')!;
    for (const source of Object.values(SOURCES)) {
      expect(importStep.env?.[source.keyVariable]).toBe(`\${{ secrets.${source.keyVariable} }}`);
      expect(importStep.env?.[source.urlVariable]).toBe(`\${{ vars.${source.urlVariable} }}`);
      expect(Object.values(ENV)).toEqual(expect.arrayContaining([source.keyVariable, source.urlVariable]));
    }
    const install = migrateWorkflow().jobs.import.steps.find((step) => step.name === 'Install the Pagerly CLI')!;
    expect(install.run).toBe('npm install --global @pagerly/cli@0');
  });

  it('the first run opens one pull request with the file and counts only; the key is in no log', async () => {
    const first = await runMigrateJob(repository, 1, { secrets: secrets(), vars: vars() });
    expect(first.steps['import']).toMatchObject({ outcome: 'success' });
    expect(first.steps['import']!.stdout).toContain('Read 120 people in 2 pages; wrote');
    expect(first.steps['import']!.stdout).toMatch(/left out: person13@acme\.example \(blocked\): blocked in Opsgenie/);
    const prStep = first.steps['Open or update the pull request']!;
    expect(prStep.outcome).toBe('success');
    expect(first.gh.map((call) => call.slice(0, 2).join(' '))).toEqual(['pr list', 'pr create']);
    const create = first.gh[1]!;
    const body = create[create.indexOf('--body-file') + 1]!;
    const text = readFileSync(body, 'utf8');
    expect(text).toContain('| People read | 120 in 2 pages |');
    expect(text).toContain('| Left out | 4: blocked 2, invited 2 |');
    expect(text).not.toMatch(/octocat|<img|acme\.example/);
    expect(fileOnBranch('pagerly/directory-import')).toContain('name: "@octocat <img src=x onerror=alert(1)>"');
    for (const step of Object.values(first.steps)) expect(`${step.stdout}${step.stderr}`).not.toContain(KEY);
  });

  it('a run with nothing new pushes nothing and leaves the pull request alone', async () => {
    const before = branchHead();
    const again = await runMigrateJob(repository, 2, { secrets: secrets(), vars: vars() });
    expect(again.steps['Open or update the pull request']!.stdout).toContain('pagerly/directory-import already proposes this import: nothing to push.');
    expect(branchHead()).toBe(before);
    expect(again.gh.map((call) => call.slice(0, 2).join(' '))).toEqual(['pr list']);
  });

  it('a change at the source updates the same pull request', async () => {
    const before = branchHead();
    people[8] = { ...people[8]!, name: 'Renamed Person' };
    const changed = await runMigrateJob(repository, 3, { secrets: secrets(), vars: vars() });
    expect(branchHead()).not.toBe(before);
    expect(fileOnBranch('pagerly/directory-import')).toContain('name: Renamed Person');
    expect(changed.gh.map((call) => call.slice(0, 3).join(' '))).toEqual(['pr list --head', 'pr edit 7']);
  });

  it('once the default branch holds what the source has (merged), the pull request is closed', async () => {
    execFileSync('git', ['update-ref', 'refs/heads/main', 'refs/heads/pagerly/directory-import'], { cwd: repository.origin });
    const merged = await runMigrateJob(repository, 4, { secrets: secrets(), vars: vars() });
    expect(merged.steps['Open or update the pull request']!.stdout).toContain('people.yaml already holds what opsgenie has: nothing to propose.');
    expect(merged.gh.map((call) => call.slice(0, 3).join(' '))).toEqual(['pr list --head', 'pr close 7']);
  });

  it('a refused key fails the import step: nothing pushed, no pull request touched', async () => {
    const before = branchHead();
    const refused = await runMigrateJob(repository, 5, { secrets: { OPSGENIE_API_KEY: 'not-the-key-at-all' }, vars: vars() });
    expect(refused.steps['import']).toMatchObject({ outcome: 'failure' });
    expect(refused.steps['import']!.stderr).toContain('OPSGENIE_API_KEY');
    expect(refused.steps['Open or update the pull request']!.outcome).toBe('skipped');
    expect(refused.gh).toEqual([]);
    expect(branchHead()).toBe(before);
  });

  it('after the cut-over day nothing is read, and the run says so', async () => {
    const requests = standIn.requests.length;
    const late = await runMigrateJob(repository, 6, { secrets: secrets(), vars: vars(), env: { CUTOVER_DATE: '2000-01-01' } });
    expect(late.steps['window']!.outputs).toEqual({ open: 'false' });
    expect(late.steps['window']!.stdout).toContain('::notice title=Past the cut-over day::2000-01-01 has passed: nothing was imported.');
    expect(late.steps['import']!.outcome).toBe('skipped');
    expect(standIn.requests.length).toBe(requests);
  });

  it("the checkout uses the import token when there is one, so the push starts the directory workflow's plan", async () => {
    const withToken = await runMigrateJob(repository, 7, { secrets: { ...secrets(), DIRECTORY_IMPORT_TOKEN: 'github_pat_stand_in' }, vars: vars() });
    expect(withToken.steps['actions/checkout@v4']!.outputs['token']).toBe('github_pat_stand_in');
    const without = await runMigrateJob(repository, 8, { secrets: secrets(), vars: vars() });
    expect(without.steps['actions/checkout@v4']!.outputs['token']).toBe('ghs_job_token_stand_in');
  });
});
