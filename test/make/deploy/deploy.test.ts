import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import nock from 'nock';
import { offlineNock } from '../../support/offline-nock.ts';
import {
  copyOfFixture,
  deployArgs,
  ENV,
  expectRecordedRequests,
  FIXTURE_APP,
  ORIGIN,
  originsOf,
  readManifest,
  readOrigins,
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

/** The idMapping a deploy of the whole fixture app records. */
const fullMapping = {
  ...emptyMapping,
  connection: [{ local: 'pagerly', remote: 'pagerly-acme' }],
  rpc: [{ local: 'listTeams', remote: 'listTeams' }],
  webhook: [{ local: 'onCallChanges', remote: 'pagerly-acme' }],
  module: ['createIncident', 'listOnCallUsers', 'watchOnCallChanges', 'makeApiCall'].map((id) => ({ local: id, remote: id })),
};

const ownOrigin = { label: 'Make eu1.make.com', baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: '.secrets/apikey' };

it('no recording holds the token', () => {
  for (const name of ['first-deploy', 're-deploy', 'webhook-created-without-name', 'forbidden', 'rpc-refused']) {
    expect(JSON.stringify(readRecording(name))).not.toContain(TOKEN);
  }
});

describe('first deploy', () => {
  it("creates the app and every component in Make's order, sending each file as it is", async () => {
    const dir = copyOfFixture();
    const { sent, recording, scope } = replay('first-deploy');
    const result = await runDeploy(deployArgs(dir));

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(unmatched.count).toBe(0);
  });

  it('sends the fields the SDK does not type: connection, webhook, crud and subtype', async () => {
    const dir = copyOfFixture();
    const { sent } = replay('first-deploy');
    await runDeploy(deployArgs(dir));

    const moduleBodies = sent.filter((request) => request.method === 'POST' && request.path.endsWith('/modules')).map((request) => JSON.parse(request.body));
    expect(moduleBodies.map((body) => [body.name, body.typeId, body.connection, body.webhook, body.crud, body.subtype])).toEqual([
      ['createIncident', 4, 'pagerly-acme', undefined, 'create', undefined],
      ['listOnCallUsers', 9, 'pagerly-acme', undefined, undefined, undefined],
      ['watchOnCallChanges', 10, 'pagerly-acme', 'pagerly-acme', undefined, undefined],
      ['makeApiCall', 12, 'pagerly-acme', undefined, undefined, 'Universal'],
    ]);
  });

  it("writes the origin with Make's names to the origins file and to makecomapp.json, keeping the rest", async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    const before = readManifest(dir);
    await runDeploy(deployArgs(dir));

    expect(readOrigins(dir)).toEqual([{ ...ownOrigin, idMapping: fullMapping }]);
    const after = readManifest(dir);
    expect(after['origins']).toEqual(readOrigins(dir));
    expect({ ...after, origins: [] }).toEqual(before);
    expect(readFileSync(originsOf(dir), 'utf8') + readFileSync(join(dir, 'makecomapp.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('records that the app serves this major, beside the origins file, once it is in Make', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    const { out } = await runDeploy(deployArgs(dir));
    const record = join(dirname(originsOf(dir)), 'app-majors.json');
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual([{ zone: 'eu1.make.com', app: 'pagerly-acme', fromMajor: 0 }]);
    expect(out.at(-1)).toBe(`Recorded in ${record}: app pagerly-acme serves major 0 and later on eu1.make.com (commit it).`);

    replay('re-deploy');
    expect((await runDeploy(deployArgs(dir))).code).toBe(0);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toHaveLength(1);
  });

  it('prints one line per step with the requests the SDK sent, and a summary with counts', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    const { out } = await runDeploy(deployArgs(dir));

    expect(out[0]).toBe(`Deploying ${dir} as app pagerly-acme v1 to https://eu1.make.com/api/v2 (40 steps)`);
    expect(out.filter((line) => /^\[\s*\d+\/40\] /.test(line))).toHaveLength(40);
    expect(out).toContain('[ 1/40] created app pagerly-acme v1 (GET /api/v2/sdk/apps/pagerly-acme/1, POST /api/v2/sdk/apps)');
    expect(out).toContain('[ 6/40] created connection pagerly → pagerly-acme (POST /api/v2/sdk/apps/pagerly-acme/connections)');
    expect(out).toContain(
      '[15/40] set     webhook onCallChanges attach ← webhooks/on-call-changes/on-call-changes.attach.iml.json (PUT /api/v2/sdk/apps/webhooks/pagerly-acme/attach)',
    );
    expect(out).toContain('Deployed app pagerly-acme v1 to https://eu1.make.com/api/v2 in 41 requests: 8 created, 32 set.');
    expect(out.join('\n')).not.toContain(TOKEN);
  });
});

describe('re-deploy', () => {
  it('updates what the first deploy created and creates no connection or webhook again', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    expect((await runDeploy(deployArgs(dir))).code).toBe(0);

    const { sent, recording, scope } = replay('re-deploy');
    const result = await runDeploy(deployArgs(dir));

    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
    expect(readOrigins(dir)[0].idMapping).toEqual(fullMapping);
    expect(result.out).toContain('[ 6/40] known   connection pagerly → pagerly-acme (no request)');
    expect(result.out).toContain('Deployed app pagerly-acme v1 to https://eu1.make.com/api/v2 in 40 requests: 5 updated, 1 found, 2 already deployed, 32 set.');
    expect(unmatched.count).toBe(0);
  });

  it('after the app folder is lost and rebuilt, the committed origins file still names everything: nothing is created twice', async () => {
    const dir = copyOfFixture();
    replay('first-deploy');
    expect((await runDeploy(deployArgs(dir))).code).toBe(0);
    rmSync(dir, { recursive: true });
    const rebuilt = copyOfFixture(); // a fresh folder, `origins: []`, as a build without dist/ would write it…
    const origins = originsOf(rebuilt);
    const { cpSync } = await import('node:fs');
    cpSync(originsOf(dir), origins); // …beside the origins file that was committed

    const { sent, recording, scope } = replay('re-deploy');
    const result = await runDeploy(deployArgs(rebuilt));

    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, rebuilt);
    expect(scope.pendingMocks()).toEqual([]);
    expect(readManifest(rebuilt)['origins'][0].idMapping).toEqual(fullMapping);
  });

  it('keeps the other origins, and the label and apikeyFile of its own', async () => {
    const other = { label: 'Make US', baseUrl: 'https://us1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: '/keys/us' };
    const dir = copyOfFixture();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(originsOf(dir), JSON.stringify([other, { ...ownOrigin, label: 'Production', apikeyFile: '../.secrets/make', idMapping: fullMapping }]));
    const { sent, recording } = replay('re-deploy');
    const result = await runDeploy(deployArgs(dir));

    expect(result.code).toBe(0);
    expectRecordedRequests(sent, recording, dir);
    const origins = readOrigins(dir);
    expect(origins).toEqual([{ ...ownOrigin, label: 'Production', apikeyFile: '../.secrets/make', idMapping: fullMapping }, other]);
    expect(readManifest(dir)['origins']).toEqual(origins);
  });
});

describe('a webhook create answer without a name', () => {
  it('stops there and says how to record the name, keeping what was created before', async () => {
    const dir = copyOfFixture((manifest) => {
      manifest['components'].rpc = {};
      manifest['components'].module = {};
    });
    const { sent, recording, scope } = replay('webhook-created-without-name');
    const result = await runDeploy(deployArgs(dir));

    expect(result.code).toBe(1);
    expectRecordedRequests(sent, recording, dir);
    expect(scope.pendingMocks()).toEqual([]);
    expect(result.err[0]).toBe('Deploy failed at step 9/13: webhook onCallChanges');
    expect(result.err[2]).toBe(
      '  Make created the webhook but did not say its name: find it among the app\'s webhooks in Make and add {"local": "onCallChanges", "remote": "<its name>"} to idMapping.webhook in the origins file',
    );
    expect(readOrigins(dir)[0].idMapping).toEqual({ ...emptyMapping, connection: [{ local: 'pagerly', remote: 'pagerly-acme' }] });
  });
});

describe('--dry-run', () => {
  it('prints every step, and sends and writes nothing', async () => {
    const dir = copyOfFixture();
    const before = readFileSync(join(dir, 'makecomapp.json'), 'utf8');
    const result = await runDeploy(deployArgs(dir, '--dry-run'));

    expect(result.code).toBe(0);
    expect(unmatched.count).toBe(0);
    expect(result.out[0]).toBe(`Dry run: deploying ${dir} as app pagerly-acme v1 to https://eu1.make.com/api/v2 would take these steps (nothing is sent now):`);
    expect(result.out.filter((line) => /^\[\s*\d+\/40\] /.test(line))).toHaveLength(40);
    expect(result.out).toContain('[ 1/40] app pagerly-acme');
    expect(result.out).toContain('[ 7/40] connection pagerly api ← connections/pagerly/pagerly.communication.iml.json');
    expect(result.out).toContain('[17/40] module createIncident');
    expect(readFileSync(join(dir, 'makecomapp.json'), 'utf8')).toBe(before);
    expect(() => readOrigins(dir)).toThrow(/ENOENT/);
  });

  it('shows the names already known from the origins file, and needs no token', async () => {
    const dir = copyOfFixture();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(originsOf(dir), JSON.stringify([{ ...ownOrigin, idMapping: fullMapping }]));
    const result = await runDeploy(deployArgs(dir, '--dry-run'), { ...ENV, MAKE_API_TOKEN: undefined });

    expect(result.code).toBe(0);
    expect(result.out).toContain('[ 6/40] connection pagerly → pagerly-acme');
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
  it("403 on the first call: exit 1, names the step, the status and Make's message, never the token", async () => {
    const dir = copyOfFixture();
    const { sent, recording } = replay('forbidden');
    const result = await runDeploy(deployArgs(dir));

    expect(result.code).toBe(1);
    expectRecordedRequests(sent, recording, dir);
    expect(result.err).toEqual([
      'Deploy failed at step 1/40: app pagerly-acme',
      '  request: GET /api/v2/sdk/apps/pagerly-acme/1',
      '  Make answered HTTP 403: Permission denied: the token is missing the scope sdk-apps:read.',
      '  The token needs the scopes sdk-apps:read and sdk-apps:write, and your account access to app pagerly-acme.',
      `  0 earlier steps were done (0 requests); ${originsOf(dir)} keeps the names of what they created, so a new deploy continues without duplicates.`,
    ]);
    expect(result.all).not.toContain(TOKEN);
    expect(readManifest(dir)['origins']).toEqual([]);
  });

  it('a refusal mid-way keeps what was created before it in the origins file', async () => {
    const dir = copyOfFixture();
    const { sent, recording } = replay('rpc-refused');
    const result = await runDeploy(deployArgs(dir));

    expect(result.code).toBe(1);
    expectRecordedRequests(sent, recording, dir);
    expect(result.err.slice(0, 4)).toEqual([
      'Deploy failed at step 9/40: RPC listTeams',
      '  request: POST /api/v2/sdk/apps/pagerly-acme/1/rpcs',
      '  Make answered HTTP 400: Validation failed',
      '    - The RPC name listTeams is already taken.',
    ]);
    expect(readOrigins(dir)[0].idMapping).toEqual({ ...emptyMapping, connection: [{ local: 'pagerly', remote: 'pagerly-acme' }] });
    expect(result.all).not.toContain(TOKEN);
  });

  it("never prints the token, even when Make's message quotes it", async () => {
    const dir = copyOfFixture();
    nock(ORIGIN)
      .get('/api/v2/sdk/apps/pagerly-acme/1')
      .reply(401, { message: 'Unauthorized', detail: `Invalid token "${TOKEN}".`, code: 'SC401' }, { 'content-type': 'application/json' });
    const result = await runDeploy(deployArgs(dir));

    expect(result.code).toBe(1);
    expect(result.err).toContain('  Make answered HTTP 401: Invalid token "[redacted]".');
    expect(result.all).not.toContain(TOKEN);
  });

  it.each(['eu9.make.invalid', 'https://eu1.make.com'])('an unreachable or malformed zone %j: exit 1 with the step and a hint, no token', async (zone) => {
    const dir = copyOfFixture();
    const result = await runDeploy(deployArgs(dir), { ...ENV, MAKE_ZONE: zone });

    expect(result.code).toBe(1);
    expect(result.err[0]).toBe('Deploy failed at step 1/40: app pagerly-acme');
    expect(result.err).toContain(`  Could not get an answer from https://${zone}: check MAKE_ZONE (the host only, e.g. eu1.make.com) and your network.`);
    expect(result.all).not.toContain(TOKEN);
  });
});
