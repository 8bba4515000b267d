import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_SYNC_FILE_BYTES } from '../../shared/directory-sync/read-file.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { KEYS, run } from './support.ts';

// A sync file that is not a regular file, or is too large, is refused at once
// (before reading it whole, so /dev/zero cannot hang the run): exit 2, a message that says why, and no request to the service on loopback.

let dir: string;
let service: Awaited<ReturnType<typeof loopbackServer>>;
let requests = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagerly-sync-guards-'));
  service = await loopbackServer((_req, res) => {
    requests += 1;
    res.writeHead(500).end();
  });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(path: string, json = false) {
  const before = requests;
  const started = Date.now();
  const r = await run(['--base-url', service.url, 'directory', 'sync', path, ...(json ? ['--json'] : [])], { env: { PAGERLY_API_KEY: KEYS.admin } });
  const ms = Date.now() - started;
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(requests).toBe(before);
  // "At once": far less than reading a device whole (never ends) or a big file would take.
  expect(ms).toBeLessThan(3_000);
  return r;
}

describe('directory sync refuses a file it must not read whole', () => {
  it('/dev/zero (a device that never ends): exit 2 at once', async () => {
    const r = await refused('/dev/zero');
    expect(r.stderr).toBe(
      'error: /dev/zero has 1 problem; nothing was changed.\n  the file cannot be read: it is a device, not a regular file: give the path of a .csv, .json or .yaml file\n',
    );
  });

  it('a FIFO nobody writes to (opening it would wait forever): exit 2 at once', async () => {
    const fifo = join(dir, 'people.csv');
    execFileSync('mkfifo', [fifo]);
    const r = await refused(fifo);
    expect(r.stderr).toContain('it is a pipe (FIFO), not a regular file');
  });

  it('a folder, also behind a symbolic link, and as JSON', async () => {
    const folder = join(dir, 'folder.csv');
    mkdirSync(folder);
    expect((await refused(folder)).stderr).toContain('it is a folder, not a regular file');
    const link = join(dir, 'link.csv');
    symlinkSync('/dev/zero', link);
    const r = await refused(link, true);
    expect(r.errorJson().error).toEqual({
      code: 'invalid_file',
      message: `${link} has 1 problem; nothing was changed.`,
      retryable: false,
      exitCode: 2,
      problems: [{ problem: 'the file cannot be read: it is a device, not a regular file: give the path of a .csv, .json or .yaml file' }],
    });
  });

  it(`a file over ${MAX_SYNC_FILE_BYTES} bytes (10 MiB, as documented): exit 2 at once, not read`, async () => {
    expect(MAX_SYNC_FILE_BYTES).toBe(10 * 1024 * 1024);
    const big = join(dir, 'big.csv');
    writeFileSync(big, 'email,name\n');
    truncateSync(big, MAX_SYNC_FILE_BYTES + 1); // sparse: nothing is written, the size is what counts
    const r = await refused(big);
    expect(r.stderr).toContain('the file cannot be read: it is larger than 10 MiB (10485760 bytes), the most a sync reads: split it into several files');
  });

  it('a file of exactly the limit is read (and then judged on its rows)', async () => {
    const edge = join(dir, 'edge.csv');
    const header = 'email,name\n';
    const row = 'a@acme.example,A\n';
    writeFileSync(edge, `${header}${row}${' '.repeat(MAX_SYNC_FILE_BYTES - header.length - row.length - 1)}\n`);
    const r = await run(['--base-url', service.url, 'directory', 'sync', edge, '--dry-run', '--retries', '0'], { env: { PAGERLY_API_KEY: KEYS.admin } });
    expect(r.stderr).not.toContain('larger than');
    expect(r.stderr).not.toContain('cannot be read');
  });
});
