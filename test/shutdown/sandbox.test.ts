import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoKeys } from '../../sandbox/index.ts';
import { type Child, exitWithin, killAll, sleep, start, waitFor } from './support.ts';

/**
 * The sandbox (`npm run sandbox`, which execs `node sandbox/cli.ts`) stopped as a service
 * manager stops it: a write in flight (a hook subscription whose body takes 3 s to arrive)
 * answers, `--state` holds it, exit 0; nothing new is taken meanwhile; a second signal ends it
 * at once. A real process, real signals.
 */

const folders: string[] = [];
afterEach(async () => {
  await killAll();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function startSandbox(args: readonly string[] = []): Promise<{ child: Child; port: number; state: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-sandbox-stop-'));
  folders.push(folder);
  const state = join(folder, 'state.json');
  const child = start(process.execPath, ['sandbox/cli.ts', '--port', '0', '--fixed-clock', '--state', state, ...args], {});
  await waitFor(() => /API base URL:\s+http:\/\/127\.0\.0\.1:\d+/.test(child.stdout()), 'the start-up banner');
  return { child, port: Number(/127\.0\.0\.1:(\d+)/.exec(child.stdout())![1]), state };
}

/** `POST /o/zapier/subscribe` whose body arrives in two halves, the second when `rest` resolves. */
function slowSubscribe(port: number, rest: Promise<unknown>): Promise<{ status: number; body: string } | { error: string }> {
  const body = JSON.stringify({ url: 'https://hooks.example.com/drain', teamname: 'Payments' });
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/o/zapier/subscribe',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-apikey': demoKeys.acmeAdmin },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.write(body.slice(0, 10));
    void rest.then(() => req.end(body.slice(10)));
  });
}

function freshGet(port: number): Promise<{ status: number; retryAfter: string | undefined } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/_sandbox/clock', agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('the sandbox, stopped', () => {
  it('SIGTERM mid-write: the write answers, --state holds it, exit 0; a new connection is refused', async () => {
    const { child, port, state } = await startSandbox();
    const answer = slowSubscribe(port, sleep(3_000));
    await sleep(800);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    await waitFor(() => child.stdout().includes('SIGTERM: closing the sandbox; 1 in flight finishes first'), 'the drain to start', 5_000);
    const late = await freshGet(port);
    if ('error' in late) expect(late.error).toBe('ECONNREFUSED');
    else expect(late).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });

    const result = await answer;
    expect(result).toMatchObject({ status: 201 });
    const { id } = JSON.parse((result as { body: string }).body) as { id: string };
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeGreaterThan(1_500);
    expect(readFileSync(state, 'utf8')).toContain(id);
  }, 40_000);

  it('a request still running at --shutdown-timeout is closed; exit 0 soon after the deadline', async () => {
    const { child, port } = await startSandbox(['--shutdown-timeout', '0.5']);
    const never = new Promise(() => undefined);
    const answer = slowSubscribe(port, never);
    await sleep(300);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit.code).toBe(0);
    // The deadline and the grace that follows it, not a hung request, decide when it ends.
    expect(exit.ms).toBeLessThan(6_000);
    expect(child.stdout()).toContain('The 0.5 s shutdown deadline has passed: cutting 1 still in flight.');
    expect(await answer).toHaveProperty('error');
  }, 40_000);

  it("Ctrl-C under npm (the terminal's SIGINT and npm's copy of it, a moment apart) is one stop: the write still answers, exit 0", async () => {
    const { child, port, state } = await startSandbox();
    const answer = slowSubscribe(port, sleep(2_000));
    await sleep(500);
    child.process.kill('SIGINT');
    await sleep(20);
    child.process.kill('SIGINT');
    expect(await answer).toMatchObject({ status: 201 });
    expect((await exitWithin(child, Date.now(), 15_000)).code).toBe(0);
    expect(readFileSync(state, 'utf8')).toContain('hooks.example.com/drain');
  }, 40_000);

  it('an open console tab (its event stream) does not hold the stop: exit 0 long before the deadline', async () => {
    const { child, port } = await startSandbox();
    const stream = await new Promise<{ ended: Promise<string> }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/_sandbox/console/events', agent: false }, (res) => {
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        const ended = new Promise<string>((done) => {
          res.on('end', () => done('end'));
          res.on('close', () => done('close'));
          res.on('error', () => done('error'));
        });
        res.resume();
        resolve({ ended });
      });
      req.on('error', reject);
      req.end();
    });
    await sleep(300);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    // The default deadline is 25 s; a stream left open would have held the stop that long.
    expect(exit.ms).toBeLessThan(5_000);
    expect(await stream.ended).toMatch(/^(end|close)$/);
  }, 40_000);

  it('a request held by an injected slow fault is cut at the deadline and keeps nothing alive after it', async () => {
    const { child, port } = await startSandbox(['--shutdown-timeout', '0.5']);
    const fault = await fetch(`http://127.0.0.1:${port}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/o/incident', status: 503, body: '{}', delayMs: 3_600_000 }),
    });
    expect(fault.status).toBeLessThan(300);
    const held = fetch(`http://127.0.0.1:${port}/o/incident`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': demoKeys.acmeAdmin },
      body: JSON.stringify({ title: 'held by an hour-long fault' }),
    }).then(
      (response) => response.status,
      () => 'cut',
    );
    await sleep(500);
    const signalled = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, signalled, 15_000);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(6_000);
    expect(await held).toBe('cut');
  }, 40_000);

  it('a second SIGTERM ends it at once (143)', async () => {
    const { child, port } = await startSandbox();
    void slowSubscribe(port, new Promise(() => undefined));
    await sleep(300);
    child.process.kill('SIGTERM');
    await waitFor(() => child.stdout().includes('SIGTERM: closing the sandbox'), 'the drain to start', 5_000);
    // A second request, not a copy of the first (SAME_REQUEST_MS).
    await sleep(400);
    const again = Date.now();
    child.process.kill('SIGTERM');
    const exit = await exitWithin(child, again, 5_000);
    expect(exit.code).toBe(143);
    expect(exit.ms).toBeLessThan(2_500);
  }, 40_000);
});
