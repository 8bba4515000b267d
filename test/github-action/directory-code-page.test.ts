import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DirectoryCore, runDirectorySync } from '../../github-action/directory/run.ts';
import { KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { csvOf, encode } from '../shared/code-page-names.ts';
import { loopbackServer } from '../support/loopback-server.ts';

/**
 * The directory-sync Action reads its file with the CLI's reader: a CP949 file (Excel on Korean
 * Windows) whose code page the bytes do not tell fails the step naming the `encoding` input,
 * with nothing sent; with `encoding: cp949` every name arrives exact. A CP850 file (Excel's
 * "CSV (MS-DOS)"), which only Mac Roman reads as names, fails it the same way.
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

const NAMES = ['김민준', '이서연'];

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

describe('the directory-sync Action on a CP949 file', () => {
  it('without the `encoding` input: the step fails before any request, showing each reading and naming the input', async () => {
    const file = join(folder, 'people.csv');
    writeFileSync(file, encode(csvOf(NAMES), 'cp949'));
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
      expect(seen.failed[0]).toContain('"김민준" in euc-kr');
      expect(seen.failed[0]).not.toContain('--encoding');
    } finally {
      await service.close();
    }
  });

  it('with `encoding: cp949`: applied, every name exact', async () => {
    const file = join(folder, 'people-cp949.csv');
    writeFileSync(file, encode(csvOf(NAMES), 'cp949'));
    const { io, seen } = fakeCore({ 'api-key': KEYS.admin, file, mode: 'apply', encoding: 'cp949', 'base-url': s.url });
    await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
    expect(seen.failed).toEqual([]);
    expect(seen.outputs).toMatchObject({ created: '2', failed: '0' });
    expect(seen.info).toContain('The file was read as EUC-KR, as the `encoding` input says.');
    NAMES.forEach((name, i) => {
      expect(person(s.sandbox, `person${i + 1}@acme.example`)).toMatchObject({ name });
    });
  });
});

describe('the directory-sync Action on a file from Excel\'s "CSV (MS-DOS)" (CP850)', () => {
  it('only Mac Roman reads it as names, as other names: the step fails before any request, showing that reading and the input to set', async () => {
    const file = join(folder, 'people-cp850.csv');
    writeFileSync(file, encode(csvOf(['Jürgen Müller', 'Björn Sørensen']), 'cp850'));
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
      expect(seen.failed[0]).toContain('pass the `encoding` input set to macintosh;');
      expect(seen.failed[0]).toContain('save it again as "CSV UTF-8"');
      expect(seen.failed[0]).toContain('row 2: name reads "JÅrgen MÅller" in macintosh');
      expect(seen.failed[0]).not.toContain('--encoding');
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
