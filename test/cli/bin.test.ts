import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KEYS, KEY_MARK, startCliSandbox, type CliSandbox } from './support.ts';

// The launcher as a real process (real HTTP to the sandbox; no nock in this file).

const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));

function pagerly(argv: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, BIN, ...argv], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());

describe('bin/pagerly.js', () => {
  it('runs a command and ends with its exit code (0), output flushed to a pipe', async () => {
    const r = await pagerly(['on-call', '--json'], { PAGERLY_API_KEY: KEYS.user, PAGERLY_BASE_URL: s.url });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).teams).toHaveLength(3);
    expect(r.stderr).toBe('');
  });

  it("passes on a failure's exit code (3 for a refused key), never printing the key", async () => {
    const r = await pagerly(['teams'], { PAGERLY_API_KEY: KEYS.wrong, PAGERLY_BASE_URL: s.url });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('The API key was refused');
    expect(r.stdout + r.stderr).not.toContain(KEY_MARK);
  });

  it('on a Node older than 22.18: a clear message and exit 1', async () => {
    const r = await pagerly(['--version'], {}, ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"22.17.0"})']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pagerly needs Node.js 22.18 or later; this is Node 22.17.0.');
    expect(r.stdout).toBe('');
  });
});
