import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

// `npm run sandbox` as a user runs it: a real npm, a real child process, real signals.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Each run gets its own process group, so a failed test cannot leave a sandbox behind.
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function npmRunSandbox(args: string[]): { child: ChildProcess; output: () => { stdout: string; stderr: string } } {
  const child = spawn('npm', ['run', '--silent', 'sandbox', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  return { child, output: () => ({ stdout, stderr }) };
}

async function waitFor(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('npm run sandbox as a server process', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to npm stops the sandbox: nothing is left holding the port', async (signal) => {
    const { child, output } = npmRunSandbox(['--port', '0']);
    await waitFor(() => /API base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(output().stdout), 'the start-up banner');
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(output().stdout)?.[1]);
    expect(await accepts(port)).toBe(true);

    child.kill(signal); // the signal goes to npm, as a service manager or `kill` would send it
    await exitOf(child);
    await waitFor(() => output().stdout.includes(`${signal}: closing the sandbox`), 'the sandbox to hear the signal', 5_000);
    // The port is free again: the node process behind npm has gone too.
    let free = false;
    await waitFor(
      () => {
        void accepts(port).then((open) => (free = !open));
        return free;
      },
      'the port to be released',
      5_000,
    );
  });

  it('a busy port: exits non-zero with one line naming the port and --port, no stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { child, output } = npmRunSandbox(['--port', String(port)]);
      const code = await exitOf(child);
      expect(code).not.toBe(0);
      const lines = output().stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringContaining(`Port ${port} on 127.0.0.1 is already in use`)]);
      expect(lines[0]).toContain('--port');
      expect(output().stderr).not.toMatch(/\bat \S+ \(|EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it('--help covers every option, the demo keys and the /_sandbox controls, with an example', async () => {
    const { child, output } = npmRunSandbox(['--help']);
    expect(await exitOf(child)).toBe(0);
    const help = output().stdout;
    for (const option of ['--port', '--seed', '--fixed-clock', '--state']) expect(help).toContain(option);
    for (const key of ['sbx_acme_admin_', 'sbx_acme_user_', 'sbx_globex_admin_']) expect(help).toContain(key);
    for (const control of ['GET    /_sandbox/clock', 'POST   /_sandbox/clock', 'POST   /_sandbox/faults', 'DELETE /_sandbox/faults'])
      expect(help).toContain(control);
    expect(help).toMatch(/Example:\n\s+npm run sandbox -- /);
  });
});
