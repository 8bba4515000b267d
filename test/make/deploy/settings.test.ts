import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings } from '../../../make-app/deploy/settings.ts';
import { offlineNock } from '../../support/offline-nock.ts';
import { copyOfFixture, ENV, FIXTURE_APP, runDeploy, TOKEN, unmatchedRequests } from './replay.ts';

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

  it('lists only what is wrong, and never the token', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP], { ...ENV, MAKE_APP_NAME: 'Pagerly_App', MAKE_APP_VERSION: 'two' });

    expect(result.code).toBe(2);
    expect(result.err[0]).toBe('Cannot deploy: 2 settings are missing or invalid.');
    expect(result.err[1]).toContain('MAKE_APP_NAME "Pagerly_App" is not a valid app ID');
    expect(result.err[2]).toContain('MAKE_APP_VERSION must be a whole number from 1');
    expect(result.all).not.toContain(TOKEN);
  });

  it.each([
    ['https://eu1.make.com', 'without a scheme', 'export MAKE_ZONE=eu1.make.com'],
    ['https://eu1.make.com/api', 'without a scheme', 'export MAKE_ZONE=eu1.make.com'],
    ['eu1.make.com/api/v2', 'without a path', 'export MAKE_ZONE=eu1.make.com'],
    ['eu1 make com', 'is not a host name', 'export MAKE_ZONE=eu1.make.com'],
  ])('rejects the zone %j (%s) with exit 2 and no request', async (zone, why, fix) => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP], { ...ENV, MAKE_ZONE: zone });

    expect(result.code).toBe(2);
    expect(result.err[0]).toBe('Cannot deploy: 1 setting is missing or invalid.');
    expect(result.err[1]).toContain(`MAKE_ZONE ${why === 'is not a host name' ? 'is not a host name' : `must be the host only, ${why}`}: got ${JSON.stringify(zone)}`);
    expect(result.err[1]).toContain(fix);
    expect(result.all).not.toContain(TOKEN);
  });

  it('reads the defaults and the optional settings', () => {
    expect(readSettings({ MAKE_API_TOKEN: ` ${TOKEN}\n`, MAKE_ZONE: 'EU2.make.com', MAKE_APP_NAME: 'pagerly-acme' })).toEqual({
      ok: true,
      settings: { token: TOKEN, zone: 'eu2.make.com', appName: 'pagerly-acme', appVersion: 1, appLabel: 'Pagerly Acme', appTheme: '#3B5BDB' },
    });
    expect(readSettings({ ...ENV, MAKE_APP_VERSION: '3', MAKE_APP_THEME: '#112233' })).toMatchObject({
      ok: true,
      settings: { appVersion: 3, appLabel: 'Pagerly', appDescription: ENV.MAKE_APP_DESCRIPTION, appTheme: '#112233' },
    });
  });

  it('rejects a token with whitespace inside without quoting it', () => {
    const result = readSettings({ ...ENV, MAKE_API_TOKEN: `${TOKEN} extra` });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('a dry run needs no token', () => {
    const { MAKE_API_TOKEN: _token, ...withoutToken } = ENV;
    expect(readSettings(withoutToken, { requireToken: false })).toMatchObject({ ok: true, settings: { token: '' } });
    expect(readSettings(withoutToken)).toMatchObject({ ok: false });
  });
});

describe('the app folder', () => {
  it('a missing folder: tells to run npm run build first, exit 2, no request', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'make-deploy-')), 'make');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(2);
    expect(result.err).toEqual([`The app folder ${dir} does not exist. Run \`npm run build\` first to generate it (or pass --app-dir <folder>).`]);
  });

  it('a folder without makecomapp.json: tells to run npm run build first', async () => {
    const dir = copyOfFixture();
    rmSync(join(dir, 'makecomapp.json'));
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(2);
    expect(result.err[0]).toContain('makecomapp.json does not exist. Run `npm run build` first');
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

describe('arguments', () => {
  it('an unknown argument: exit 2 with the usage', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP, '--force']);
    expect(result.code).toBe(2);
    expect(result.err[0]).toBe('Unknown argument "--force".');
    expect(result.err[1]).toContain('Usage: npm run make:deploy');
  });

  it('--app-dir needs a value; --app-dir=<folder> works too', async () => {
    expect((await runDeploy(['--app-dir'])).err[0]).toBe('--app-dir needs a folder.');
    expect((await runDeploy([`--app-dir=${FIXTURE_APP}`, '--dry-run'])).code).toBe(0);
  });

  it('--help prints the usage', async () => {
    const result = await runDeploy(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.out[0]).toContain('Usage: npm run make:deploy');
  });
});
