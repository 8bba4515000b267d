import type { Loose } from '../support/zapier-neutral-form.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { keyHeader, keySafeText, WITHHELD } from '../../make-app/generator/iml-key.ts';
import { serialise, writeGeneratedFiles } from '../../surfaces/write-files.ts';
import { checkExpression, evaluateExpression, expressionsIn } from '../../make-app/interpreter/iml/index.ts';
import { checkAgainstSchemas } from '../../make-app/schema-check/check-against-schemas.ts';
import { makeSchemasDir } from '../../make-app/schema-check/beside-checkout.ts';

const files = generateMakeApp();
const manifest = files.get('makecomapp.json') as Loose;
const temp = mkdtempSync(join(tmpdir(), 'make-app-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const listFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();

describe('the generated Make app', () => {
  it('is deterministic: two builds write the same bytes', () => {
    writeGeneratedFiles(generateMakeApp(), join(temp, 'a'));
    writeGeneratedFiles(generateMakeApp(), join(temp, 'b'));
    const a = listFiles(join(temp, 'a'));
    expect(a).toEqual(listFiles(join(temp, 'b')));
    expect(a.length).toBe(files.size);
    for (const path of a) expect(readFileSync(join(temp, 'b', path), 'utf8')).toBe(readFileSync(join(temp, 'a', path), 'utf8'));
  });

  it('lists every file it writes in makecomapp.json, and every listed file exists', () => {
    const listed = new Set<string>(Object.values(manifest.generalCodeFiles));
    for (const type of Object.values(manifest.components) as Loose[]) {
      for (const component of Object.values(type) as Loose[]) for (const path of Object.values(component.codeFiles)) listed.add(path as string);
    }
    expect([...listed].sort()).toEqual([...files.keys()].filter((p) => p !== 'makecomapp.json').sort());
  });

  it('refers only to components it defines, with ids Make accepts', () => {
    const { connection, webhook, module, rpc } = manifest.components;
    for (const [id, m] of Object.entries(module) as [string, any][]) {
      expect(id).toMatch(/^[a-zA-Z][0-9a-zA-Z]{3,47}$/);
      expect(connection[m.connection]).toBeDefined();
      if (m.moduleType === 'instant_trigger') expect(webhook[m.webhook]).toBeDefined();
    }
    for (const id of Object.keys(rpc)) expect(id).toMatch(/^[a-zA-Z][0-9a-zA-Z]{3,47}$/);
    for (const w of Object.values(webhook) as Loose[]) expect(connection[w.connection]).toBeDefined();
    const groups = files.get('modules/groups.json') as { modules: string[] }[];
    expect(groups.flatMap((g) => g.modules).sort()).toEqual(Object.keys(module).sort());
  });

  it('uses only the IML subset our evaluator runs', () => {
    let count = 0;
    for (const [path, content] of files) {
      if (path === 'README.md') continue;
      for (const expression of expressionsIn(content)) {
        expect(() => checkExpression(expression)).not.toThrow();
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  it('never puts a key into a file, and sends the key header only from the connection', () => {
    const text = [...files.values()].map(serialise).join('\n');
    expect(text).not.toMatch(/sbx_[a-z]+_/);
    const keyHeaders = [...text.matchAll(/"X-APIKEY": "([^"]+)"/g)].map((m) => m[1]);
    // One header everywhere: the key made once per request in `temp.key`, checked in one expression (make-app/generator/iml-key.ts).
    expect(new Set(keyHeaders)).toEqual(new Set([keyHeader()]));
    expect(keyHeader()).toBe("{{if(replace(temp.key, /[^!-~]/g, '') == temp.key, temp.key, undefined)}}");
    // temp.key comes from the connection: its parameter in the key check, the connection in every other request.
    const madeFrom = [...text.matchAll(/"temp": \{\s*"key": "([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(madeFrom)).toEqual(new Set(['{{trim(connection.apiKey)}}', '{{trim(parameters.apiKey)}}']));
    expect(madeFrom).toHaveLength(keyHeaders.length);
  });

  it("passes Make's official schemas (../shared/make-sdk-schemas), every file", () => {
    const results = checkAgainstSchemas(makeSchemasDir, files);
    expect(results.filter((r) => r.errors.length)).toEqual([]);
    expect(results.filter((r) => r.schema).length).toBe(files.size - 1);
  });
});

describe('IML that means the same whatever Make leaves open', () => {
  // help.make.com/text-and-binary-functions does not say whether a plain-text replace changes the
  // first or every occurrence; our evaluator takes the first. A key quoted twice is then withheld;
  // replaced everywhere it would read "[redacted]" twice: never the key either way.
  it('a text quoting the key twice keeps the key out (first-occurrence reading)', () => {
    const key = 'sbx_acme_0123456789abcdef';
    const shown = evaluateExpression(keySafeText('body', 'parameters.apiKey'), { body: `bad ${key} and again ${key}`, parameters: { apiKey: key } });
    expect(shown).toBe(WITHHELD);
    expect(evaluateExpression(keySafeText('body', 'parameters.apiKey'), { body: `bad ${key}.`, parameters: { apiKey: key } })).toBe('bad [redacted].');
  });

  it('phone numbers lose every separator through one /.../g pattern, the documented way to replace all', () => {
    const communication = files.get('modules/update-directory-phone/update-directory-phone.communication.iml.json') as Loose;
    expect(communication.body.phone).toMatch(/\/g, ''\)/);
  });
});

describe('rebuilding the Make app', () => {
  it('puts the committed origins file into makecomapp.json, so a lost dist/ loses no deploy link', async () => {
    const { buildMakeApp } = await import('../../make-app/build-make-app.ts');
    const { writeOrigins } = await import('../../make-app/origins.ts');
    const folder = join(temp, 'deployed/');
    const originsFile = join(temp, 'origins.json');
    expect(buildMakeApp(folder, originsFile).keptOrigins).toBe(0);
    const origins = [{ baseUrl: 'https://eu1.make.com/api', appId: 'pagerly-acme', appVersion: 1, apikeyFile: '.secrets/make-api-key' }];
    writeOrigins(origins, originsFile);
    rmSync(folder, { recursive: true });
    expect(buildMakeApp(folder, originsFile).keptOrigins).toBe(1);
    expect(JSON.parse(readFileSync(join(folder, 'makecomapp.json'), 'utf8')).origins).toEqual(origins);
  });
});
