import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { main } from '../../cli/main.ts';
import { Capture } from '../cli/support.ts';

/**
 * `pagerly mcp --http` on a port it cannot have: one line naming the flag to change and exit 2,
 * not "error: unexpected: listen EADDRINUSE" and exit 1 (as a second server, or the sandbox's
 * port, used to give).
 */
let busy: Server;
let port: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
  port = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

async function mcp(argv: string[]) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(['mcp', '--http', ...argv], { PAGERLY_API_KEY: 'http-listen-test-key' }, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('pagerly mcp --http on a port or address it cannot listen on', () => {
  it('a port in use: says so, names --port, exit 2', async () => {
    const r = await mcp(['--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(r.stderr).toContain('--port N');
    expect(r.stderr).not.toContain('unexpected');
    expect(r.stdout).toBe('');
  });

  it('with --json: the same as a usage error document', async () => {
    const r = await mcp(['--port', String(port), '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });
  });

  it('an address that is not this machine: names --host, exit 2', async () => {
    // 192.0.2.1 (TEST-NET-1) is never assigned here; binding to it fails at once, nothing is sent.
    const r = await mcp(['--host', '192.0.2.1', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Cannot listen on 192.0.2.1');
    expect(r.stderr).toContain('--host');
  });
});
