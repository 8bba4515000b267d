import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DirectoryCore, runDirectorySync } from '../../github-action/directory/run.ts';
import { KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { csvOf, encode } from '../shared/code-page-names.ts';
import { loopbackServer } from '../support/loopback-server.ts';

/**
 * The directory-sync Action reads its file with the CLI's reader: a file whose code page no
 * reading tells clearly (one Chinese name, which EUC-KR reads as another) fails the step naming
 * the `encoding` input, with nothing sent; with `encoding: cp936` the name arrives exact. A
 * CP850 file (Excel's "CSV (MS-DOS)") and Korean CP949 are read, every name exact; UTF-8 whose
 * names were encoded twice is repaired, or, when it cannot be exactly, fails with nothing sent.
 */
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-action-code-page-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let s: CliSandbox;
beforeEach(async () => {
  s = await startCliSandbox();
});
afterEach(() => s.close());

const NAMES = ['何磊'];

/** The Action's core calls, kept: what it failed with, logged and set. */
function fakeCore(inputs: Record<string, string>) {
  const seen = { failed: [] as string[], info: [] as string[], outputs: {} as Record<string, string> };
  const io: DirectoryCore = {
    getInput: (name: string) => inputs[name] ?? '',
    setSecret: () => undefined,
    setOutput: (name: string, value: unknown) => {
      seen.outputs[name] = String(value);
    },
    setFailed: (message: string | Error) => {
      seen.failed.push(String(message));
    },
    info: (message: string) => {
      seen.info.push(message);
    },
    warning: () => undefined,
  };
  return { io, seen };
}

describe('the directory-sync Action on a file whose code page no reading tells clearly', () => {
  it('without the `encoding` input: the step fails before any request, showing each reading and naming the input', async () => {
    const file = join(folder, 'people.csv');
    writeFileSync(file, encode(csvOf(NAMES), 'gb18030'));
    let requests = 0;
    const service = await loopbackServer((_request, response) => {
      requests += 1;
      response.writeHead(500).end();
    });
    try {
      const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file, mode: 'apply', 'base-url': service.url });
      await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
      expect(requests).toBe(0);
      expect(seen.failed).toHaveLength(1);
      expect(seen.failed[0]).toContain('was not synced; nothing was sent');
      expect(seen.failed[0]).toContain('Name the one whose names are right with the `encoding` input (');
      expect(seen.failed[0]).toContain('row 2: name reads ');
      expect(seen.failed[0]).toContain('"何磊" in gb18030');
      expect(seen.failed[0]).not.toContain('--encoding');
    } finally {
      await service.close();
    }
  });

  it('with `encoding: cp936`: applied, every name exact', async () => {
    const file = join(folder, 'people-cp936.csv');
    writeFileSync(file, encode(csvOf(NAMES), 'gb18030'));
    const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file, mode: 'apply', encoding: 'cp936', 'base-url': s.url });
    await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
    expect(seen.failed).toEqual([]);
    expect(seen.outputs).toMatchObject({ created: '1', failed: '0' });
    expect(seen.info).toContain('The file was read as GBK, as the `encoding` input says.');
    NAMES.forEach((name, i) => {
      expect(person(s.sandbox, `person${i + 1}@acme.example`)).toMatchObject({ name });
    });
  });
});

describe('the directory-sync Action reads what Excel and other tools save', () => {
  it.each([
    ['CP949 (Excel on Korean Windows)', ['김민준', '이서연'], 'cp949', 'EUC-KR'],
    ['CP850 (Excel\'s "CSV (MS-DOS)")', ['Jürgen Müller', 'Björn Sørensen'], 'cp850', 'DOS 850'],
  ])('%s: applied, every name exact, the log saying how it was read', async (_what, names, codePage, title) => {
    const file = join(folder, `people-${codePage}.csv`);
    writeFileSync(file, encode(csvOf(names), codePage));
    const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file, mode: 'apply', 'base-url': s.url });
    await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
    expect(seen.failed).toEqual([]);
    expect(seen.outputs).toMatchObject({ created: String(names.length), failed: '0' });
    expect(seen.info.some((line) => line.startsWith(`The file is not UTF-8: it was read as ${title}, `))).toBe(true);
    names.forEach((name, i) => {
      expect(person(s.sandbox, `person${i + 1}@acme.example`)).toMatchObject({ name });
    });
  });

  it('UTF-8 encoded twice ("JosÃ© GarcÃ­a"): repaired exactly; with one value not encoded twice, the step fails with nothing sent', async () => {
    const names = ['José García', 'Ángel Martínez'];
    const twice = Buffer.from(new TextDecoder('windows-1252').decode(Buffer.from(csvOf(names), 'utf8')), 'utf8');
    const file = join(folder, 'people-twice.csv');
    writeFileSync(file, twice);
    const repaired = fakeCore({ 'api-key': KEYS.admin, file, mode: 'apply', 'base-url': s.url });
    await runDirectorySync(repaired.io, { GITHUB_EVENT_NAME: 'push' });
    expect(repaired.seen.failed).toEqual([]);
    expect(repaired.seen.info.some((line) => line.includes('encoded twice'))).toBe(true);
    names.forEach((name, i) => {
      expect(person(s.sandbox, `person${i + 1}@acme.example`)).toMatchObject({ name });
    });

    const mixed = join(folder, 'people-twice-mixed.csv');
    writeFileSync(mixed, Buffer.concat([twice, Buffer.from('person3@acme.example,Zoë Brontë\r\n', 'utf8')]));
    let requests = 0;
    const service = await loopbackServer((_request, response) => {
      requests += 1;
      response.writeHead(500).end();
    });
    try {
      const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file: mixed, mode: 'apply', 'base-url': service.url });
      await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
      expect(requests).toBe(0);
      expect(seen.failed).toHaveLength(1);
      expect(seen.failed[0]).toContain('was not synced; nothing was sent');
      expect(seen.failed[0]).toContain('"JosÃ©" for "José"');
    } finally {
      await service.close();
    }
  });
});

describe("the directory-sync Action's failure", () => {
  it("shows the bidi and zero-width controls of the service's reason, never applied (shared/visible-controls.ts)", async () => {
    const file = join(folder, 'people-refused.csv');
    writeFileSync(file, 'email,name\nbob@acme.example,Bob\n');
    const service = await loopbackServer((request, response) => {
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify([{ Error: 'Only Ad\u200bmin \u202Eno\u202C may' }]));
    });
    try {
      const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file, mode: 'plan', 'base-url': service.url });
      await runDirectorySync(io, { GITHUB_EVENT_NAME: 'pull_request' });
      expect(seen.failed).toHaveLength(1);
      expect(seen.failed[0]).toContain('Only Ad\\u200bmin \\u202eno\\u202c may');
      expect(seen.failed[0]).not.toMatch(/[\u200b\u202e\u202c]/);
    } finally {
      await service.close();
    }
  });
});
