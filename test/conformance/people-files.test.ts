import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DirectoryCore, runDirectorySync } from '../../github-action/directory/run.ts';
import { KEYS, person, run, startCliSandbox } from '../cli/support.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { PEOPLE_FILES, type PeopleFile } from './people-files.ts';

/**
 * The people-file row of the conformance table (docs/guarantees.md) on every surface that syncs
 * the directory from a file: `pagerly directory sync` (the CLI, in process) and the directory
 * Action (its run, with the runner's core calls kept). A file read is synced against the
 * sandbox, every name arriving exactly; a file refused sends nothing to a loopback service that
 * counts requests, and says why. Both surfaces must come to the same outcome on every file.
 */
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-people-files-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function written(file: PeopleFile, index: number): string {
  const path = join(folder, `people-${index}.csv`);
  if (typeof file.bytes === 'number') {
    const fd = openSync(path, 'w');
    ftruncateSync(fd, file.bytes);
    closeSync(fd);
  } else writeFileSync(path, file.bytes);
  return path;
}

/** What a surface came to: the error it showed, or none. */
type Sync = (path: string, baseUrl: string) => Promise<{ failed?: string }>;

const SURFACES: readonly (readonly [string, Sync])[] = [
  [
    'CLI (pagerly directory sync)',
    async (path, baseUrl) => {
      const r = await run(['--base-url', baseUrl, 'directory', 'sync', path], { env: { PAGERLY_API_KEY: KEYS.admin } });
      if (r.code === 0) return {};
      expect([r.code, r.stdout]).toEqual([2, '']);
      return { failed: r.stderr };
    },
  ],
  [
    'GitHub Action (directory)',
    async (path, baseUrl) => {
      const failed: string[] = [];
      const io: DirectoryCore = {
        getInput: (name: string) => ({ 'api-key': KEYS.admin, file: path, mode: 'apply', 'base-url': baseUrl })[name] ?? '',
        setSecret: () => undefined,
        setOutput: () => undefined,
        setFailed: (message: string | Error) => void failed.push(String(message)),
        info: () => undefined,
        warning: () => undefined,
      };
      await runDirectorySync(io, { GITHUB_EVENT_NAME: 'push' });
      return failed.length === 0 ? {} : { failed: failed.join('\n') };
    },
  ],
];

const cases = SURFACES.flatMap(([surface, sync]) => PEOPLE_FILES.map((file, index) => [surface, file.name, file, index, sync] as const));

describe('a people file is read exactly when clear, refused when not, never written misread, on every surface that syncs one', () => {
  it.each(cases.filter(([, , file]) => 'names' in file.expect))('%s: %s: every name arrives exactly', async (_surface, _name, file, index, sync) => {
    const s = await startCliSandbox();
    try {
      const outcome = await sync(written(file, index), s.url);
      expect(outcome).toEqual({});
      const names = (file.expect as { names: readonly string[] }).names;
      expect(names.map((_, i) => person(s.sandbox, `person${i + 1}@acme.example`)?.name)).toEqual(names.map((name) => name.normalize('NFC')));
    } finally {
      await s.close();
    }
  });

  it.each(cases.filter(([, , file]) => 'refused' in file.expect))(
    '%s: %s: refused, saying why, with nothing sent',
    async (_surface, _name, file, index, sync) => {
      let requests = 0;
      const service = await loopbackServer((_request, response) => {
        requests += 1;
        response.writeHead(500).end();
      });
      try {
        const outcome = await sync(written(file, index), service.url);
        expect(outcome.failed).toContain((file.expect as { refused: string }).refused);
        expect(requests).toBe(0);
      } finally {
        await service.close();
      }
    },
  );
});
