import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import nock from 'nock';
import { generateMakeApp } from '../../../make-app/generator/generate.ts';
import type { ReleaseCheck, SinceRelease } from '../../../make-app/deploy/release-check.ts';
import { compareWithRelease } from '../../../scripts/api/check.ts';
import { makeItems } from '../../../scripts/api/surfaces/make.ts';
import { operations } from '../../../shared/operations/index.ts';
import type { Operation } from '../../../shared/operations/types.ts';
import { offlineNock } from '../../support/offline-nock.ts';
import { copyOfFixture, deployArgs, ENV, ORIGIN, originsOf, runDeploy, unmatchedRequests } from './replay.ts';

/**
 * Make applies a deploy to every scenario using the app at once, so `make:deploy` refuses a
 * breaking difference on the Make surface since the released reports (api/released/make.txt),
 * before any request and in a dry run too, unless told to deploy as a new app. The differences
 * are api:check's own, made from a copy of the operations with a breaking change in it (the
 * shipped operations stay as they are).
 */
offlineNock();

let unmatched: ReturnType<typeof unmatchedRequests>;
beforeEach(() => {
  unmatched = unmatchedRequests();
});
afterEach(() => {
  unmatched.stop();
  nock.cleanAll();
});

const dirs: string[] = [];
const fixture = () => {
  const dir = copyOfFixture();
  dirs.push(dirname(dir));
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** api:check's differences on the Make surface for the app these operations make. */
const checkOf =
  (list: readonly Operation[]): ReleaseCheck =>
  async () => {
    const fresh = { surface: 'make' as const, items: makeItems(generateMakeApp({ operations: list }), list) };
    return compareWithRelease(['make'], [fresh]);
  };

// A renamed input key: every scenario that mapped "phone" in the module would lose the value.
const renamed = operations.map((op) =>
  op.id === 'updateDirectoryPhone'
    ? { ...op, inputFields: op.inputFields.map((field) => (field.key === 'phone' ? { ...field, key: 'phone_number' } : field)) }
    : op,
) as Operation[];
// A new optional input: nothing a scenario has breaks.
const added = operations.map((op) =>
  op.id === 'createIncident'
    ? { ...op, inputFields: [...op.inputFields, { key: 'runbook', label: 'Runbook', type: 'url', required: false, help: 'A link to the runbook.' }] }
    : op,
) as Operation[];

describe('make:deploy against the released interface', () => {
  it('finds the breaking difference with api:check, naming the module', async () => {
    const since = await checkOf(renamed)();
    const breaking = since.differences.filter((d) => d.verdict === 'breaking');
    expect(breaking.map((d) => d.id)).toContain('module/updateDirectoryPhone/param/phone');
    expect((await checkOf(operations)()).differences).toEqual([]);
  });

  it('refuses a dry run, listing each breaking difference, and sends nothing', async () => {
    const run = await runDeploy(deployArgs(fixture(), '--dry-run'), ENV, checkOf(renamed));
    expect(run.code).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err[0]).toMatch(/^Not deploying to app pagerly-acme: \d+ breaking differences? on the Make surface since the released version 0\.1\.0/);
    expect(run.err.filter((line) => line.startsWith('  - module/updateDirectoryPhone/param/phone: removed'))).toHaveLength(1);
    expect(run.all).toContain('--new-app <name> (or MAKE_NEW_APP=<name>)');
    expect(unmatched.count).toBe(0);
  });

  it('refuses with no settings at all: the breaking change is said first, not hidden behind a missing one', async () => {
    const run = await runDeploy(deployArgs(fixture(), '--dry-run'), {}, checkOf(renamed));
    expect(run.code).toBe(2);
    expect(run.err[0]).toMatch(/^Not deploying: \d+ breaking differences? on the Make surface/);
    expect(run.all).not.toContain('MAKE_ZONE');
    expect(unmatched.count).toBe(0);
  });

  it('refuses a real deploy the same way, before any request', async () => {
    const run = await runDeploy(deployArgs(fixture()), ENV, checkOf(renamed));
    expect(run.code).toBe(2);
    expect(run.all).toContain('Nothing was sent.');
    expect(unmatched.count).toBe(0);
  });

  it('says it as one JSON document with --json', async () => {
    const run = await runDeploy(deployArgs(fixture(), '--dry-run', '--json'), ENV, checkOf(renamed));
    expect(run.code).toBe(2);
    const document = JSON.parse(run.out.join('\n')) as { ok: boolean; refused: { breaking: { id: string; verdict: string }[] } };
    expect(document.ok).toBe(false);
    expect(document.refused.breaking.map((d) => d.id)).toContain('module/updateDirectoryPhone/param/phone');
    expect(document.refused.breaking.every((d) => d.verdict === 'breaking')).toBe(true);
  });

  it('goes on as a new app with --new-app, or MAKE_NEW_APP, saying why', async () => {
    for (const [args, env] of [
      [['--new-app', 'pagerly-acme-2'], ENV],
      [[], { ...ENV, MAKE_NEW_APP: 'pagerly-acme-2' }],
    ] as const) {
      const run = await runDeploy(deployArgs(fixture(), '--dry-run', ...args), env, checkOf(renamed));
      expect(run.code).toBe(0);
      expect(run.out[0]).toMatch(/^Deploying as the new app pagerly-acme-2 \(--new-app\), since \d+ breaking differences? since 0\.1\.0/);
      expect(run.out.filter((line) => line.startsWith('  - module/updateDirectoryPhone/param/phone: removed'))).toHaveLength(1);
      expect(run.all).toContain('as app pagerly-acme-2 v1 to https://eu1.make.com/api/v2');
      expect(run.all).toContain('app pagerly-acme-2 (new)');
    }
    expect(unmatched.count).toBe(0);
  });

  it('lets a compatible change through to the live app', async () => {
    const since: SinceRelease = await checkOf(added)();
    expect(since.differences.length).toBeGreaterThan(0);
    expect(since.differences.every((d) => d.verdict === 'compatible')).toBe(true);
    const run = await runDeploy(deployArgs(fixture(), '--dry-run'), ENV, checkOf(added));
    expect(run.code).toBe(0);
    expect(run.out[0]).toMatch(/^Dry run: deploying .* as app pagerly-acme v1/);
  });

  it('refuses a new app that is not new: one in the origins file, or one Make already has', async () => {
    const dir = fixture();
    writeFileSync(
      originsOf(dir),
      JSON.stringify([{ label: 'Make eu1.make.com', baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme-2', appVersion: 1 }]),
    );
    const known = await runDeploy(deployArgs(dir, '--dry-run', '--new-app', 'pagerly-acme-2'), ENV, checkOf(renamed));
    expect(known.code).toBe(2);
    expect(known.err[0]).toMatch(/--new-app pagerly-acme-2 names an app already deployed to eu1\.make\.com/);

    nock(ORIGIN)
      .get('/api/v2/sdk/apps/pagerly-acme-3/1')
      .reply(200, { app: { name: 'pagerly-acme-3', version: 1 } });
    const found = await runDeploy(deployArgs(fixture(), '--new-app', 'pagerly-acme-3'), ENV, checkOf(renamed));
    expect(found.code).toBe(1);
    expect(found.all).toContain('app pagerly-acme-3 already exists in Make; --new-app needs a name no app has yet');
  });
});

describe('npm run make:deploy', () => {
  it("runs api:check's comparison of the checkout before the plan", async () => {
    const dir = fixture();
    const { stdout } = await promisify(execFile)(process.execPath, [join(process.cwd(), 'scripts/make-deploy.ts'), ...deployArgs(dir, '--dry-run')], {
      env: { PATH: process.env.PATH ?? '', MAKE_ZONE: 'eu1.make.com', MAKE_APP_NAME: 'pagerly-acme' },
    });
    // The checkout's Make surface is the released one: the dry run goes on.
    expect(stdout).toMatch(/^Dry run: deploying .* as app pagerly-acme v1/);
  }, 60_000);
});
