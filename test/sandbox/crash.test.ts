import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { PersistedState } from '../../sandbox/index.ts';
import { demoKeys, demoStateFile, HOUR, pendingDelivery, platformEvent, startReceiver, temporaryFolder, until, type Receiver } from './support.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** The project's Node 22, which runs the TypeScript files as they are (as `npm run sandbox` does). */
const node = join(repo, 'node_modules/.bin/node');

interface RunningCli {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node sandbox/cli.ts --state FILE --port 0 --fixed-clock`, once it says where it listens. */
async function startCli(stateFile: string): Promise<RunningCli> {
  const child = spawn(node, ['sandbox/cli.ts', '--state', stateFile, '--port', '0', '--fixed-clock'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start within 20 s; stderr: ${stderr}`)), 20_000);
    const look = () => {
      const found = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (!found) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      resolve(found[1]!);
    };
    child.stdout!.on('data', look);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox ended (${code ?? signal}) before it listened; stderr: ${stderr}`));
    });
  });
  return { url, child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function call(url: string, path: string, init: { method?: string; key?: string; body?: unknown } = {}) {
  const response = await fetch(url + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.key ? { 'x-apikey': init.key } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

/** Option `--state` against a real crash: the sandbox as a child process, ended by SIGKILL. */
describe('sandbox --state: event ids across a SIGKILL', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const cli = async (stateFile: string) => {
    const running = await startCli(stateFile);
    cleanups.push(() => {
      running.child.kill('SIGKILL');
      return running.exited;
    });
    return running;
  };

  const receiver = async (answer: (n: number) => number | 'hang') => {
    const started = await startReceiver(answer);
    cleanups.push(() => started.close());
    return started;
  };

  it('never gives an event id to two changes, and redelivers the one in flight with its id', async () => {
    const folder = await temporaryFolder();
    cleanups.push(() => folder.remove());
    const file = join(folder.path, 'state.json');

    let first: RunningCli | undefined;
    // Killed the moment the first delivery is in: whatever the sandbox meant to write after
    // sending it never happens.
    const hooks: Receiver = await receiver((n) => {
      if (n === 0) {
        first!.child.kill('SIGKILL');
        return 'hang';
      }
      return 200;
    });

    first = await cli(file);
    const subscribed = await call(first.url, '/o/zapier/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url: hooks.url, teamname: 'Platform' } });
    expect(subscribed.status).toBe(201);
    // 09:00: Platform hands over (Alan to Edsger). The answer may never come: the sandbox dies.
    await call(first.url, '/_sandbox/clock', { method: 'POST', body: { advanceMs: HOUR } }).catch(() => undefined);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(hooks.received).toHaveLength(1);
    const handover = hooks.received[0]!;
    expect(handover.body).toMatchObject({ team: { name: 'Platform' }, previous: [{ id: 'usr_alan' }], current: [{ id: 'usr_edsger' }] });
    const firstId = handover.headers['x-pagerly-event-id'];
    expect(firstId).toBe(handover.body.id);

    // Started again on the same file: the delivery that was in flight goes again (at least
    // once), with the same id and the very same bytes.
    const second = await cli(file);
    await until(() => hooks.received.length >= 2, 'the redelivery');
    expect(hooks.received[1]!.headers['x-pagerly-event-id']).toBe(firstId);
    expect(hooks.received[1]!.raw).toBe(handover.raw);

    // The next day at 09:00, Platform hands over again (Edsger to Hedy): another change, so another id.
    const advanced = await call(second.url, '/_sandbox/clock', { method: 'POST', body: { advanceMs: 25 * HOUR } });
    expect(advanced.status).toBe(200);
    await until(() => hooks.received.length >= 3, 'the next change');
    const next = hooks.received[2]!;
    expect(next.body).toMatchObject({ team: { name: 'Platform' }, previous: [{ id: 'usr_edsger' }], current: [{ id: 'usr_hedy' }] });
    expect(next.headers['x-pagerly-event-id']).toBe(next.body.id);
    expect(next.body.id).not.toBe(firstId);
    expect(hooks.received).toHaveLength(3);

    // Nothing left pending in the file once both are answered (progress is written within moments).
    let kept: PersistedState | undefined;
    for (const started = Date.now(); Date.now() - started < 5_000; await new Promise((resolve) => setTimeout(resolve, 20))) {
      kept = JSON.parse(await readFile(file, 'utf8')) as PersistedState;
      if (kept.pending.length === 0) break;
    }
    expect(kept?.pending).toEqual([]);
    expect(kept?.ids.evt).toBeGreaterThanOrEqual(Number(String(next.body.id).slice(4)));
  });

  it('names at start the pending deliveries whose subscription is not in the file', async () => {
    const folder = await temporaryFolder();
    cleanups.push(() => folder.remove());
    const file = join(folder.path, 'state.json');
    const hooks = await receiver(() => 200);
    await writeFile(
      file,
      JSON.stringify(
        demoStateFile(hooks.url, {
          events: { evt_0001: platformEvent('evt_0001'), evt_0002: platformEvent('evt_0002'), evt_0003: platformEvent('evt_0003') },
          pending: [
            pendingDelivery('evt_0001', 'sub_0001', hooks.url),
            pendingDelivery('evt_0002', 'sub_0007', hooks.url),
            pendingDelivery('evt_0003', 'sub_0009', hooks.url),
          ],
        }),
      ),
    );

    const running = await cli(file);
    expect(running.stdout()).toContain(`State file:          ${file} (1 subscription kept, 1 pending delivery resumed, 2 orphaned: see the warning)`);
    // Written before the banner, but on another pipe: it may come in a moment later.
    await until(() => running.stderr().includes('orphan') || running.stderr().includes('not delivered'), 'the warning');
    expect(running.stderr()).toContain(
      `Sandbox state file ${file}: 2 pending deliveries name subscriptions the file does not have, so they are not delivered: evt_0002 to sub_0007, evt_0003 to sub_0009.`,
    );
    await until(() => hooks.received.length >= 1, 'the resumed delivery');
    expect(hooks.received.map((hook) => hook.body.id)).toEqual(['evt_0001']);
  });
});
