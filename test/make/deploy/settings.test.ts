import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings } from '../../../make-app/deploy/settings.ts';
import { offlineNock } from '../../support/offline-nock.ts';
import { ENV, FIXTURE_APP, runDeploy, TOKEN, unmatchedRequests } from './replay.ts';

offlineNock();

let unmatched: ReturnType<typeof unmatchedRequests>;
beforeEach(() => {
  unmatched = unmatchedRequests();
});
afterEach(() => {
  // Nothing in this file may reach the network: every case stops before the first request.
  expect(unmatched.count).toBe(0);
  unmatched.stop();
});

describe('settings from the environment', () => {
  it('missing settings: exit 2, every missing one listed with how to set it, no request', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP], {});

    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toBe('Cannot deploy: 3 settings are missing or invalid.');
    expect(result.err[1]).toMatch(/^ {2}- MAKE_API_TOKEN is not set: .*sdk-apps:read and sdk-apps:write.*export MAKE_API_TOKEN=<token>/);
    expect(result.err[2]).toMatch(/^ {2}- MAKE_ZONE is not set: .*export MAKE_ZONE=eu1\.make\.com/);
    expect(result.err[3]).toMatch(/^ {2}- MAKE_APP_NAME is not set: .*export MAKE_APP_NAME=pagerly-acme/);
    expect(result.all).toContain('MAKE_API_TOKEN=<your token> MAKE_ZONE=eu1.make.com MAKE_APP_NAME=pagerly-acme npm run make:deploy');
  });

  it('a version that is not a whole number: exit 2, and never the token', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP], { ...ENV, MAKE_APP_VERSION: 'two' });

    expect(result.code).toBe(2);
    expect(result.err.slice(0, 2)).toEqual([
      'Cannot deploy: 1 setting is missing or invalid.',
      '  - MAKE_APP_VERSION must be a whole number from 1 (the app\'s major version): got "two".',
    ]);
    expect(result.all).not.toContain(TOKEN);
  });

  it('reads the defaults and the optional settings', () => {
    expect(readSettings({ MAKE_API_TOKEN: ` ${TOKEN}\n`, MAKE_ZONE: 'eu2.make.com', MAKE_APP_NAME: 'pagerly-acme' })).toEqual({
      settings: { token: TOKEN, zone: 'eu2.make.com', appName: 'pagerly-acme', appVersion: 1, appLabel: 'Pagerly Acme', appTheme: '#3B5BDB' },
    });
    expect(readSettings({ ...ENV, MAKE_APP_VERSION: '3', MAKE_APP_THEME: '#112233' })).toMatchObject({
      settings: { appVersion: 3, appLabel: 'Pagerly', appDescription: ENV.MAKE_APP_DESCRIPTION, appTheme: '#112233' },
    });
  });

  it('a dry run needs no token', () => {
    const { MAKE_API_TOKEN: _token, ...withoutToken } = ENV;
    expect(readSettings(withoutToken, { requireToken: false })).toMatchObject({ settings: { token: '' } });
    expect(readSettings(withoutToken)).toHaveProperty('problems');
  });
});

describe('the app folder', () => {
  it('a missing folder: tells to run npm run build first, exit 2, no request', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'make-deploy-')), 'make');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      `${join(dir, 'makecomapp.json')} does not exist. Run \`npm run build\` first to generate the Make app (or pass --app-dir <folder>).`,
    ]);
  });

  it('the default folder is dist/make', async () => {
    // A dry run, so that it sends nothing whether or not `npm run build` has made dist/make here.
    const result = await runDeploy(['--dry-run']);
    expect(result.all).toContain('dist/make');
  });

  it('settings are checked before the folder', async () => {
    const result = await runDeploy(['--app-dir', '/nonexistent/make'], {});
    expect(result.err[0]).toBe('Cannot deploy: 3 settings are missing or invalid.');
  });
});

describe('arguments (node:util parseArgs)', () => {
  it('an unknown argument: exit 2 with the usage', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP, '--force']);
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(/^Unknown option '--force'/);
    expect(result.err[1]).toContain('Usage: npm run make:deploy');
  });

  it('--app-dir needs a value; --app-dir=<folder> works too', async () => {
    expect((await runDeploy(['--app-dir'])).err[0]).toMatch(/^Option '--app-dir <value>' argument missing/);
    expect((await runDeploy([`--app-dir=${FIXTURE_APP}`, '--dry-run'])).code).toBe(0);
  });

  it('--help prints the usage', async () => {
    const result = await runDeploy(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.out[0]).toContain('Usage: npm run make:deploy');
  });
});
