import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { type AppMajor, appMajorsBeside, readAppMajors } from '../../../make-app/app-majors.ts';
import { checkAppMajor, majorsText, servedMajors } from '../../../make-app/deploy/app-major.ts';
import { main } from '../../../make-app/deploy/main.ts';
import type { ReleaseCheck } from '../../../make-app/deploy/release-check.ts';
import { LOOPBACK_CERT } from '../../../packaging/tls-front.ts';

/**
 * After a breaking release goes out as a new Make app, the old app keeps every scenario built on
 * the older major. In a private or public custom app "all changes take effect immediately in
 * running scenarios", and for major changes Make says to create a new app
 * (https://developers.make.com/custom-apps-documentation/app-maintenance/updating-your-app/private-public-apps),
 * so a deploy of the new major to the old app (a forgotten MAKE_APP_NAME) must stop before any
 * request. The deploys here go to a stand-in of Make's API on loopback
 * (HTTPS, with a certificate this process is told to trust) that counts every request it gets:
 * a refusal leaves it at 0, and a deploy let through reaches it.
 */

const KEY = fileURLToPath(new URL('../../../packaging/fixtures/loopback-key.pem', import.meta.url));
const FIXTURE_APP = fileURLToPath(new URL('./fixture-app', import.meta.url));
const TOKEN = '0f3b5c7d-9e1f-4a2b-8c3d-5e7f9a1b3c5d';

let standIn: Server;
let zone: string;
const received: string[] = [];
const trusted = tls.getCACertificates('default');

beforeAll(async () => {
  // Make's answer to a token it does not know: enough for a deploy let through to stop at its first request.
  standIn = createServer({ cert: readFileSync(LOOPBACK_CERT), key: readFileSync(KEY) }, (request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Invalid token."}');
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  zone = `127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  tls.setDefaultCACertificates([...trusted, readFileSync(LOOPBACK_CERT, 'utf8')]);
});

afterAll(async () => {
  tls.setDefaultCACertificates(trusted);
  standIn.closeAllConnections();
  await new Promise<void>((resolve) => standIn.close(() => resolve()));
});

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A scratch copy of the fixture app, its origins file beside it, and this record beside that. */
function workspace(records: readonly Omit<AppMajor, 'zone'>[]): { args: string[]; record: string } {
  const folder = mkdtempSync(join(tmpdir(), 'make-app-major-'));
  folders.push(folder);
  const dir = join(folder, 'app');
  cpSync(FIXTURE_APP, dir, { recursive: true });
  const origins = join(folder, 'origins.json');
  const record = appMajorsBeside(origins);
  writeFileSync(record, JSON.stringify(records.map((entry) => ({ zone, ...entry }))));
  return { args: ['--app-dir', dir, '--origins', origins], record };
}

/** The release check at a version whose interface is already released: nothing breaks since. */
const at =
  (version: string, releasedVersion = version): ReleaseCheck =>
  async () => ({ releasedVersion, version, differences: [] });

async function deploy(args: string[], env: Record<string, string>, release: ReleaseCheck) {
  const before = received.length;
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { MAKE_API_TOKEN: TOKEN, MAKE_ZONE: zone, ...env }, { out: (line) => out.push(line), err: (line) => err.push(line) }, release);
  return { code, out, err, all: [...out, ...err].join('\n'), requests: received.slice(before) };
}

/** Major 1 on the first app; 2.0.0 broke the Make app and went out as pagerly-acme-2. */
const AFTER_A_NEW_APP = [
  { app: 'pagerly-acme', fromMajor: 1 },
  { app: 'pagerly-acme-2', fromMajor: 2 },
];

describe('make:deploy and the major each Make app serves', () => {
  it("refuses a new major's interface on the previous major's app before any request, dry run included, naming both", async () => {
    const { args } = workspace(AFTER_A_NEW_APP);
    for (const mode of [['--dry-run'], []]) {
      const run = await deploy([...args, ...mode], { MAKE_APP_NAME: 'pagerly-acme' }, at('2.1.0', '2.0.0'));
      expect({ mode, code: run.code, requests: run.requests }).toEqual({ mode, code: 2, requests: [] });
      expect(run.out).toEqual([]);
      expect(run.err[0]).toContain(`Not deploying to app pagerly-acme: on ${zone} it serves major 1 (`);
      expect(run.err[0]).toContain('and this is 2.1.0, major 2; app pagerly-acme-2 serves major 2.');
      expect(run.all).toContain('Deploy major 2 to its app: MAKE_APP_NAME=pagerly-acme-2.');
      expect(run.err.at(-1)).toBe('Nothing was sent.');
    }
  });

  it('says it as one JSON document with --json', async () => {
    const { args, record } = workspace(AFTER_A_NEW_APP);
    const run = await deploy([...args, '--dry-run', '--json'], { MAKE_APP_NAME: 'pagerly-acme' }, at('2.1.0', '2.0.0'));
    expect(run.code).toBe(2);
    expect(JSON.parse(run.out.join('\n'))).toEqual({
      ok: false,
      refused: { zone, app: 'pagerly-acme', version: '2.1.0', major: 2, appForMajor: 'pagerly-acme-2', record, servesMajors: { from: 1, to: 1 } },
    });
    expect(run.requests).toEqual([]);
  });

  it("lets the right app through: the major's own app, and the old app for a fix of the old major", async () => {
    const { args } = workspace(AFTER_A_NEW_APP);
    const dry = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme-2' }, at('2.1.0', '2.0.0'));
    expect(dry.code).toBe(0);
    expect(dry.out[0]).toMatch(/^Dry run: deploying .* as app pagerly-acme-2 v1/);
    expect(dry.requests).toEqual([]);

    const fix = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme' }, at('1.4.1', '2.0.0'));
    expect(fix.code).toBe(0);

    // Not a dry run: the deploy goes on to Make (the stand-in), which is what the refusals above never reached.
    const real = await deploy(args, { MAKE_APP_NAME: 'pagerly-acme-2' }, at('2.1.0', '2.0.0'));
    expect(real.requests).toEqual(['GET /api/v2/sdk/apps/pagerly-acme-2/1']);
    expect(real.code).toBe(1);
    expect(real.all).toContain('Make answered HTTP 401');
  });

  it("refuses an old major's fix on the new major's app, naming both", async () => {
    const { args } = workspace(AFTER_A_NEW_APP);
    const run = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme-2' }, at('1.4.1', '2.0.0'));
    expect(run.code).toBe(2);
    expect(run.err[0]).toContain(`Not deploying to app pagerly-acme-2: on ${zone} it serves major 2 and later (`);
    expect(run.err[0]).toContain('this is 1.4.1, major 1; app pagerly-acme serves major 1.');
    expect(run.requests).toEqual([]);
  });

  it('refuses an app the record does not know in a zone it knows, and a new app for a major that has one', async () => {
    const { args } = workspace(AFTER_A_NEW_APP);
    const unknown = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme-typo' }, at('2.1.0', '2.0.0'));
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toContain('Not deploying to app pagerly-acme-typo:');
    expect(unknown.err[0]).toContain('pagerly-acme serves major 1, pagerly-acme-2 serves major 2 and later. This is 2.1.0, major 2.');
    expect(unknown.all).toContain('MAKE_APP_NAME=pagerly-acme-2');

    const notNew = await deploy([...args, '--dry-run', '--new-app', 'pagerly-acme-3'], { MAKE_APP_NAME: 'pagerly-acme-2' }, at('2.1.0', '2.0.0'));
    expect(notNew.code).toBe(2);
    expect(notNew.err[0]).toContain(`Not deploying the new app pagerly-acme-3: on ${zone}, app pagerly-acme-2 serves major 2 already`);
    expect([unknown.requests, notNew.requests]).toEqual([[], []]);
  });

  it('takes a new app for a new major, and records an app the first time it deploys it', async () => {
    const { args, record } = workspace(AFTER_A_NEW_APP);
    const breaking = [{ id: 'module/createIncident/param/title', change: 'removed', verdict: 'breaking' as const, advice: '' }];
    const next = await deploy([...args, '--dry-run', '--new-app', 'pagerly-acme-3'], { MAKE_APP_NAME: 'pagerly-acme-2' }, async () => ({
      releasedVersion: '2.1.0',
      version: '3.0.0',
      differences: breaking,
    }));
    expect(next.code).toBe(0);
    expect(next.out.at(-1)).toBe(`Would record in ${record}: app pagerly-acme-3 serves major 3 and later on ${zone}.`);
    expect(readAppMajors(record)).toHaveLength(2);

    // A deploy that reaches Make but fails before the app exists records nothing.
    const first = workspace([]);
    const failed = await deploy(first.args, { MAKE_APP_NAME: 'pagerly-acme' }, at('0.1.0'));
    expect(failed.code).toBe(1);
    expect(readAppMajors(first.record)).toEqual([]);
  });

  it('keeps refusing a breaking change without a new app first', async () => {
    const { args } = workspace(AFTER_A_NEW_APP);
    const run = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme-2' }, async () => ({
      releasedVersion: '2.0.0',
      version: '2.1.0',
      differences: [{ id: 'module/createIncident/param/title', change: 'removed', verdict: 'breaking', advice: '' }],
    }));
    expect(run.code).toBe(2);
    expect(run.err[0]).toMatch(/^Not deploying to app pagerly-acme-2: 1 breaking difference on the Make surface since the released version 2\.0\.0/);
    expect(run.requests).toEqual([]);
  });

  it('refuses a record it cannot read, naming the entry', async () => {
    const { args, record } = workspace([]);
    writeFileSync(
      record,
      JSON.stringify([
        { zone, app: 'pagerly-acme', fromMajor: 1 },
        { zone, app: 'pagerly-acme-2', fromMajor: 1 },
      ]),
    );
    const run = await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme' }, at('1.0.0'));
    expect(run.code).toBe(2);
    expect(run.err).toEqual([`${record}, entries 1 and 2: each app of a zone is listed once, and each first major has one app.`]);
    writeFileSync(record, '{"pagerly-acme": 1}');
    expect((await deploy([...args, '--dry-run'], { MAKE_APP_NAME: 'pagerly-acme' }, at('1.0.0'))).err[0]).toContain('must hold a JSON list');
  });
});

describe('which majors an app serves', () => {
  const records: AppMajor[] = [
    { zone: 'eu1.make.com', app: 'a', fromMajor: 0 },
    { zone: 'eu1.make.com', app: 'c', fromMajor: 4 },
    { zone: 'eu1.make.com', app: 'b', fromMajor: 2 },
    { zone: 'us1.make.com', app: 'a', fromMajor: 3 },
  ];
  const eu = records.filter((record) => record.zone === 'eu1.make.com');

  it('runs from its first major up to the next app of its zone', () => {
    expect(eu.map((record) => majorsText(servedMajors(eu, record)))).toEqual(['majors 0 to 1', 'major 4 and later', 'majors 2 to 3']);
  });

  it('is checked per zone: the same name in another zone is another app', () => {
    const check = (app: string, version: string, zoneName = 'eu1.make.com') =>
      checkAppMajor(records, { zone: zoneName, app, version, newApp: false }, 'app-majors.json').ok;
    expect([check('a', '1.9.0'), check('b', '3.0.0'), check('c', '9.0.0')]).toEqual([true, true, true]);
    expect([check('a', '2.0.0'), check('b', '1.0.0'), check('c', '3.0.0')]).toEqual([false, false, false]);
    expect([check('a', '3.0.0', 'us1.make.com'), check('a', '2.0.0', 'us1.make.com'), check('z', '0.1.0', 'us2.make.com')]).toEqual([true, false, true]);
  });
});
