import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { offlineNock } from '../../support/offline-nock.ts';
import {
  copyOfFixture,
  ENV,
  expectRecordedRequests,
  FIXTURE_APP,
  ORIGIN,
  readManifest,
  readRecording,
  replay,
  runDeploy,
  TOKEN,
  unmatchedRequests,
} from './replay.ts';

offlineNock();

let unmatched: ReturnType<typeof unmatchedRequests>;
beforeEach(() => {
  unmatched = unmatchedRequests();
});
afterEach(() => unmatched.stop());

const emptyMapping = { connection: [], endpoint: [], function: [], module: [], rpc: [], webhook: [] };

/** The idMapping a deploy of the whole fixture app leaves in makecomapp.json. */
const fullMapping = {
  ...emptyMapping,
  connection: [{ local: 'pagerly', remote: 'pagerly-acme' }],
  rpc: [{ local: 'listTeams', remote: 'listTeams' }],
  webhook: [{ local: 'onCallChanges', remote: 'pagerly-acme' }],
  module: ['createIncident', 'listOnCallUsers', 'watchOnCallChanges', 'makeApiCall'].map((id) => ({ local: id, remote: id })),
};

/** Leaves only the connection, the webhook and (optionally) the instant trigger in the app. */
const trimApp = (keepTrigger: boolean) => (manifest: Record<string, any>) => {
  manifest['components'].rpc = {};
  const trigger = manifest['components'].module.watchOnCallChanges;
  manifest['components'].module = keepTrigger ? { watchOnCallChanges: trigger } : {};
};

it('no recording holds the token', () => {
  for (const name of ['first-deploy', 're-deploy', 're-deploy-after-rebuild', 'webhook-created-without-name', 'forbidden', 'rpc-refused']) {
    expect(JSON.stringify(readRecording(name))).not.toContain(TOKEN);
  }
});

describe('first deploy', () => {
  it('creates the app and every component in Make\'s order, sending each file as it is', async () => {
    const dir = copyOfFixture();
    const { sent, recording, scope } = replay('first-deploy');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(unmatched.count).toBe(0);
  });

  it('sends the fields the SDK does not type: connection, webhook, crud and subtype', async () => {
    const dir = copyOfFixture();
    const { sent } = replay('first-deploy');
    await runDeploy(['--app-dir', dir]);

    const moduleBodies = sent.filter((request) => request.method === 'POST' && request.path.endsWith('/modules')).map((request) => JSON.parse(request.body));
    expect(moduleBodies.map((body) => [body.name, body.typeId, body.connection, body.webhook, body.crud, body.subtype])).toEqual([
      ['createIncident', 4, 'pagerly-acme', undefined, 'create', undefined],
      ['listOnCallUsers', 9, 'pagerly-acme', undefined, undefined, undefined],
      ['watchOnCallChanges', 10, 'pagerly-acme', 'pagerly-acme', undefined, undefined],
      ['makeApiCall', 12, 'pagerly-acme', undefined, undefined, 'Universal'],
    ]);
  });

  it('writes the origin and the names Make gave into makecomapp.json, keeping the rest', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    const before = readManifest(dir);
    await runDeploy(['--app-dir', dir]);

    const after = readManifest(dir);
    expect(after['origins']).toEqual([
      {
        label: 'Make eu1.make.com',
        baseUrl: 'https://eu1.make.com/api',
        appId: 'pagerly-acme',
        appVersion: 1,
        apikeyFile: '.secrets/apikey',
        idMapping: fullMapping,
      },
    ]);
    expect({ ...after, origins: [] }).toEqual(before);
    expect(readFileSync(join(dir, 'makecomapp.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('prints one line per step and a summary with counts', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    const { out } = await runDeploy(['--app-dir', dir]);

    expect(out[0]).toBe(`Deploying ${dir} as app pagerly-acme v1 to https://eu1.make.com/api/v2 (40 steps)`);
    expect(out.filter((line) => /^\[\s*\d+\/40\] /.test(line))).toHaveLength(40);
    expect(out).toContain('[ 1/40] created app pagerly-acme v1 (GET /sdk/apps/pagerly-acme/1, POST /sdk/apps)');
    expect(out).toContain('[ 6/40] created connection pagerly → pagerly-acme (POST /sdk/apps/pagerly-acme/connections)');
    expect(out).toContain('[15/40] set     webhook onCallChanges attach ← webhooks/on-call-changes/on-call-changes.attach.iml.json (PUT /sdk/apps/webhooks/pagerly-acme/attach)');
    expect(out).toContain(
      'Deployed app pagerly-acme v1 to eu1.make.com in 41 requests: app created; 1 connection (1 created); 1 RPC (1 created); 1 webhook (1 created); 4 modules (4 created); 32 sections set.',
    );
    expect(out.join('\n')).not.toContain(TOKEN);
  });
});

describe('re-deploy', () => {
  it('updates what the first deploy created and creates no connection or webhook again', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    expect((await runDeploy(['--app-dir', dir])).code).toBe(0);

    const { sent, recording, scope } = replay('re-deploy');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
    expect(readManifest(dir)['origins'][0].idMapping).toEqual(fullMapping);
    expect(result.out).toContain('[ 6/40] known   connection pagerly → pagerly-acme (no request)');
    expect(result.out).toContain(
      'Deployed app pagerly-acme v1 to eu1.make.com in 40 requests: app found; 1 connection (1 already deployed); 1 RPC (1 updated); 1 webhook (1 already deployed); 4 modules (4 updated); 32 sections set.',
    );
    expect(unmatched.count).toBe(0);
  });

  it('after a rebuild without idMapping, reuses the app\'s connection and webhook found by label', async () => {
    const dir = copyOfFixture(trimApp(true));
    const { sent, recording, scope } = replay('re-deploy-after-rebuild');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(readManifest(dir)['origins'][0].idMapping).toEqual({
      ...emptyMapping,
      connection: [{ local: 'pagerly', remote: 'pagerly-acme3' }],
      webhook: [{ local: 'onCallChanges', remote: 'pagerly-acme5' }],
      module: [{ local: 'watchOnCallChanges', remote: 'watchOnCallChanges' }],
    });
    expect(result.out).toContain('[ 6/19] adopted connection pagerly → pagerly-acme3 (GET /sdk/apps/pagerly-acme/connections)');
  });

  it('keeps other origins and the label and apikeyFile of its own', async () => {
    const other = { label: 'Make US', baseUrl: 'https://us1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: '/keys/us' };
    const dir = copyOfFixture((manifest) => {
      trimApp(true)(manifest);
      manifest['origins'] = [other, { label: 'Production', baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: '../.secrets/make', idMapping: { ...emptyMapping, connection: [{ local: 'pagerly', remote: 'pagerly-acme3' }], webhook: [{ local: 'onCallChanges', remote: 'pagerly-acme5' }] } }];
    });
    const { sent } = replay('re-deploy-after-rebuild');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(0);
    // Known from idMapping: the app's connection and webhook lists are not even asked for.
    expect(sent.map((request) => request.path)).not.toContain('/api/v2/sdk/apps/pagerly-acme/connections');
    expect(sent.map((request) => request.path)).not.toContain('/api/v2/sdk/apps/pagerly-acme/webhooks');
    const origins = readManifest(dir)['origins'];
    expect(origins[1]).toEqual(other);
    expect(origins[0]).toMatchObject({ label: 'Production', apikeyFile: '../.secrets/make', baseUrl: 'https://eu1.make.com/api' });
  });
});

describe('a webhook create answer without a name', () => {
  it('learns the name from the app\'s webhook list', async () => {
    const dir = copyOfFixture(trimApp(false));
    const { sent, recording, scope } = replay('webhook-created-without-name');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(readManifest(dir)['origins'][0].idMapping.webhook).toEqual([{ local: 'onCallChanges', remote: 'pagerly-acme' }]);
  });
});

describe('--dry-run', () => {
  it('prints every step and its calls, and sends nothing', async () => {
    const dir = copyOfFixture();
    const before = readFileSync(join(dir, 'makecomapp.json'), 'utf8');
    const result = await runDeploy(['--app-dir', dir, '--dry-run']);

    expect(result.code).toBe(0);
    expect(unmatched.count).toBe(0);
    expect(result.out[0]).toContain('Dry run');
    expect(result.out.filter((line) => /^\[\s*\d+\/40\] /.test(line))).toHaveLength(40);
    expect(result.out).toContain('[ 1/40] app pagerly-acme: GET /sdk/apps/pagerly-acme/1; if it does not exist: POST /sdk/apps');
    expect(result.out).toContain('[ 7/40] connection pagerly api ← connections/pagerly/pagerly.communication.iml.json: PUT /sdk/apps/connections/<new connection pagerly>/api');
    expect(result.out).toContain('[17/40] module createIncident: POST /sdk/apps/pagerly-acme/1/modules, or PATCH /sdk/apps/pagerly-acme/1/modules/createIncident if it exists');
    expect(readFileSync(join(dir, 'makecomapp.json'), 'utf8')).toBe(before);
  });

  it('shows the names already known from idMapping, and needs no token', async () => {
    const dir = copyOfFixture((manifest) => {
      manifest['origins'] = [{ baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: 'k', idMapping: fullMapping }];
    });
    const result = await runDeploy(['--app-dir', dir, '--dry-run'], { ...ENV, MAKE_API_TOKEN: undefined });

    expect(result.code).toBe(0);
    expect(result.out).toContain('[ 6/40] connection pagerly: none: already deployed as pagerly-acme (origins[0].idMapping)');
    expect(result.out).toContain('[ 7/40] connection pagerly api ← connections/pagerly/pagerly.communication.iml.json: PUT /sdk/apps/connections/pagerly-acme/api');
    expect(unmatched.count).toBe(0);
  });

  it('--json prints one JSON document', async () => {
    const result = await runDeploy(['--app-dir', FIXTURE_APP, '--dry-run', '--json']);
    const document = JSON.parse(result.out.join('\n'));
    expect(document).toMatchObject({ ok: true, dryRun: true, target: { zone: 'eu1.make.com', appName: 'pagerly-acme', appVersion: 1 } });
    expect(document.steps).toHaveLength(40);
  });
});

describe('API errors', () => {
  it('403 on the first call: exit 1, names the step, the status and Make\'s message, never the token', async () => {
    const dir = copyOfFixture();
    const { sent, recording } = replay('forbidden');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(1);
    expectRecordedRequests(sent, recording, dir);
    expect(result.err).toEqual([
      'Deploy failed at step 1/40: app pagerly-acme',
      '  request: GET /sdk/apps/pagerly-acme/1',
      '  Make answered HTTP 403: Permission denied: the token is missing the scope sdk-apps:read.',
      '  The token needs the scopes sdk-apps:read and sdk-apps:write, and your account access to app pagerly-acme.',
      '  0 earlier steps were done (0 requests); origins[0].idMapping in makecomapp.json keeps what they created, so a new deploy continues without duplicates.',
    ]);
    expect(result.all).not.toContain(TOKEN);
    expect(readManifest(dir)['origins']).toEqual([]);
  });

  it('a refusal mid-way keeps what was created before it in idMapping', async () => {
    const dir = copyOfFixture();
    const { sent, recording } = replay('rpc-refused');
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(1);
    expectRecordedRequests(sent, recording, dir);
    expect(result.err[0]).toBe('Deploy failed at step 9/40: RPC listTeams');
    expect(result.err[1]).toBe('  request: POST /sdk/apps/pagerly-acme/1/rpcs');
    expect(result.err[2]).toBe('  Make answered HTTP 400: Validation failed');
    expect(result.err[3]).toBe('    - The RPC name listTeams is already taken.');
    expect(readManifest(dir)['origins'][0].idMapping).toEqual({ ...emptyMapping, connection: [{ local: 'pagerly', remote: 'pagerly-acme' }] });
    expect(result.all).not.toContain(TOKEN);
  });

  it('never prints the token, even when Make\'s message quotes it', async () => {
    const dir = copyOfFixture();
    nock(ORIGIN)
      .get('/api/v2/sdk/apps/pagerly-acme/1')
      .reply(401, { message: 'Unauthorized', detail: `Invalid token "${TOKEN}".`, code: 'SC401' }, { 'content-type': 'application/json' });
    const result = await runDeploy(['--app-dir', dir]);

    expect(result.code).toBe(1);
    expect(result.err).toContain('  Make answered HTTP 401: Invalid token "[MAKE_API_TOKEN]".');
    expect(result.all).not.toContain(TOKEN);
  });

  it('an unreachable zone: exit 1 with the step and a hint, no token', async () => {
    const dir = copyOfFixture();
    const result = await runDeploy(['--app-dir', dir], { ...ENV, MAKE_ZONE: 'eu9.make.invalid' });

    expect(result.code).toBe(1);
    expect(result.err[0]).toBe('Deploy failed at step 1/40: app pagerly-acme');
    expect(result.err).toContain('  Could not get an answer from https://eu9.make.invalid: check MAKE_ZONE and your network.');
    expect(unmatched.count).toBe(1); // the request nock refused, standing in for an unreachable host
    expect(result.all).not.toContain(TOKEN);
  });
});
