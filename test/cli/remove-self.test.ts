import type { Loose } from '../support/zapier-neutral-form.ts';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { REMOVES_OWN_KEY_NOTE } from '../../shared/operations/directory-actions.ts';
import App from '../../zapier-app/index.ts';
import { startKeyProxy, type KeyProxy } from '../support/key-proxy.ts';
import { KEYS, person, run, startCliSandbox, type CliSandbox } from './support.ts';

// An admin whose key removes their own directory entry revokes that key mid-run,
// so the CLI skips or refuses it. Real HTTP: the sandbox on loopback, behind the key proxy that notes every request.
// KEYS.admin is Grace Hopper's key (grace@acme.example).

let s: CliSandbox;
let proxy: KeyProxy;
let dir: string;

beforeEach(async () => {
  s = await startCliSandbox();
  proxy = await startKeyProxy(s.url);
  dir = mkdtempSync(join(tmpdir(), 'pagerly-remove-self-'));
});
afterEach(async () => {
  await proxy.close();
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], key: string = KEYS.admin) => run(['--base-url', proxy.url, '--retries', '0', ...argv], { env: { PAGERLY_API_KEY: key } });
const keyChecks = () => proxy.requests.filter((r) => r.url.endsWith('/o/test/apikey')).length;

function file(rows: string): string {
  const path = join(dir, 'people.csv');
  writeFileSync(path, `email,name,phone,role,remove\n${rows}`);
  return path;
}

describe("directory sync never removes the key's owner", () => {
  it('skips that row with the reason, applies the others, asks whose key it is once; the key still works', async () => {
    const path = file('katherine@acme.example,Katherine J.,,,\nGrace@ACME.example,,,,yes\nhedy@acme.example,,,,yes\nedsger@acme.example,,,,x\n');
    const r = await cli(['directory', 'sync', path, '--concurrency', '4']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}skipped {2}row 3 {2}Grace@ACME\.example +not removed: that is the person this API key acts as: removing their entry revokes the key itself, and the sync runs with that key; remove them with `pagerly directory remove EMAIL --force`, or sync with another admin's key$/m,
    );
    expect(r.stdout).toContain('0 created, 1 updated, 2 removed, 0 unchanged, 0 already absent, 0 failed, 1 skipped.');
    expect(person(s.sandbox, 'grace@acme.example')).toBeDefined();
    expect(person(s.sandbox, 'hedy@acme.example')).toBeUndefined();
    expect(person(s.sandbox, 'edsger@acme.example')).toBeUndefined();
    expect(person(s.sandbox, 'katherine@acme.example')?.name).toBe('Katherine J.');
    expect(proxy.requests.filter((req) => req.method === 'DELETE')).toHaveLength(2);
    expect(keyChecks()).toBe(1);
    expect((await cli(['check'])).code).toBe(0);
  });

  it('--json and --dry-run say the same: action skip, outcome skipped, with the reason', async () => {
    const path = file('grace@acme.example,,,,yes\nhedy@acme.example,,,,yes\n');
    const dry = await cli(['directory', 'sync', path, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^ {2}skip {4}row 2 {2}grace@acme\.example {2}not removed: that is the person this API key acts as/m);
    expect(dry.stdout).toContain('Would create 0, update 0, remove 1; 0 unchanged, 0 already absent, 1 skipped.');

    const r = await cli(['directory', 'sync', path, '--json']);
    expect(r.code).toBe(0);
    const doc = r.json();
    expect(doc.summary).toMatchObject({ removed: 1, skipped: 1, failed: 0 });
    expect(doc.rows[0]).toMatchObject({
      row: 2,
      email: 'grace@acme.example',
      action: 'skip',
      outcome: 'skipped',
      reason: expect.stringContaining('revokes the key itself'),
    });
    expect(person(s.sandbox, 'grace@acme.example')).toBeDefined();
  });

  it('a file that removes nobody does not ask whose key it is', async () => {
    const r = await cli(['directory', 'sync', file('katherine@acme.example,Katherine J.,,,\n')]);
    expect(r.code).toBe(0);
    expect(keyChecks()).toBe(0);
  });

  it('when the key check fails, no removal is sent (each remove row fails with why); other rows go on', async () => {
    s.sandbox.faults.inject({ method: 'GET', path: '/o/test/apikey', status: 503, body: '[{"Error":"Unavailable"}]' });
    const r = await cli(['directory', 'sync', file('katherine@acme.example,Katherine J.,,,\nhedy@acme.example,,,,yes\n')]);
    expect(r.code).toBe(75);
    expect(r.stdout).toMatch(/row 3 {2}hedy@acme\.example {2}could not tell whose API key this is, so nobody is removed: \[server\]/);
    expect(person(s.sandbox, 'hedy@acme.example')).toBeDefined();
    expect(person(s.sandbox, 'katherine@acme.example')?.name).toBe('Katherine J.');
    expect(proxy.requests.filter((req) => req.method === 'DELETE')).toHaveLength(0);
  });

  it('when the key check names nobody, no removal is sent either (exit 1)', async () => {
    s.sandbox.faults.inject({ method: 'GET', path: '/o/test/apikey', status: 200, body: '{"valid":true}' });
    const r = await cli(['directory', 'sync', file('hedy@acme.example,,,,yes\n')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('The key check did not say whose key this is');
    expect(person(s.sandbox, 'hedy@acme.example')).toBeDefined();
  });
});

describe("directory remove of the key's owner needs --force", () => {
  it('without --force: exit 2, says why, removes nothing (any letter case, human and --json)', async () => {
    const r = await cli(['directory', 'remove', 'GRACE@acme.example']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: Not removing GRACE@acme.example: that is the person this API key acts as: removing their entry revokes the key itself, so this and every other script or connection using it would stop working. Add --force to remove it anyway.\n',
    );
    const json = await cli(['directory', 'remove', 'grace@acme.example', '--json']);
    expect(json.code).toBe(2);
    expect(json.errorJson().error).toMatchObject({ code: 'usage', exitCode: 2, message: expect.stringContaining('Add --force') });
    expect(proxy.requests.filter((req) => req.method === 'DELETE')).toHaveLength(0);
    expect(person(s.sandbox, 'grace@acme.example')).toBeDefined();
  });

  it('with --force it is removed, and the key stops working (exit 3 afterwards)', async () => {
    const r = await cli(['directory', 'remove', 'grace@acme.example', '--force']);
    expect(r.code).toBe(0);
    expect(keyChecks()).toBe(0);
    expect(person(s.sandbox, 'grace@acme.example')).toBeUndefined();
    expect((await cli(['check'])).code).toBe(3);
  });

  it('someone else is removed without --force, after one key check', async () => {
    const r = await cli(['directory', 'remove', 'hedy@acme.example']);
    expect(r.code).toBe(0);
    expect(keyChecks()).toBe(1);
    expect(person(s.sandbox, 'hedy@acme.example')).toBeUndefined();
  });

  it('the help says so', async () => {
    const r = await run(['directory', 'remove', '--help']);
    expect(r.stdout).toContain('--force');
    expect(r.stdout).toContain('revokes the key this command runs with');
  });
});

describe('the Zapier and Make remove actions say it in their help', () => {
  it("Zapier: the action's description and its e-mail field", () => {
    const create = (App.creates as Record<string, any>).remove_directory_entry;
    expect(create.display.description).toContain(REMOVES_OWN_KEY_NOTE);
    expect(create.operation.inputFields.find((f: any) => f.key === 'email').helpText).toContain(REMOVES_OWN_KEY_NOTE);
  });

  it("Make: the module's description and its e-mail parameter", () => {
    const files = generateMakeApp();
    const manifest = files.get('makecomapp.json') as Loose;
    expect(manifest.components.module.removeDirectoryEntry.description).toContain(REMOVES_OWN_KEY_NOTE);
    const params = files.get('modules/remove-directory-entry/remove-directory-entry.mappable-params.iml.json') as Loose[];
    expect(params.find((p) => p.name === 'email')!.help).toContain(REMOVES_OWN_KEY_NOTE);
  });

  it('the note names the effect: the key is revoked, the connection stops', () => {
    expect(REMOVES_OWN_KEY_NOTE).toMatch(/revokes that key.*connection stops working/);
  });
});
