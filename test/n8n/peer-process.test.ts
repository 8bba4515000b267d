import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordSenders, socketInode, type SeenRequest } from '../../n8n-app/e2e/peer-process.ts';

/**
 * Which process sent a request, as the queue-mode e2e proves that the worker ran an execution:
 * the kernel's socket table (proc(5), https://man7.org/linux/man-pages/man5/proc_net.5.html)
 * and each process's descriptors (https://man7.org/linux/man-pages/man5/proc_pid_fd.5.html).
 */
const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 2222 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0000000000000000 20 4 30 10 -1`;

let server: Server;
let port: number;
let seen: readonly SeenRequest[];
let candidates: number[] = [];
/** How many requests had been recorded when the server's own handler saw each one. */
const recordedBeforeHandler: number[] = [];

beforeAll(async () => {
  server = createServer((_, res) => {
    recordedBeforeHandler.push(seen.length);
    res.end('ok');
  });
  seen = recordSenders(server, () => candidates).seen;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

// A child Node process takes seconds to start on a busy machine: the two cases below wait for one.

/** A child Node process that sends one request and exits: another pid than the test's. */
function requestFromChild(): Promise<number> {
  const child = spawn(process.execPath, ['-e', `fetch('http://127.0.0.1:${port}/from-child').then((r) => r.text())`], { stdio: 'ignore' });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(child.pid!) : reject(new Error(`child exit ${code}`)))));
}

describe('the process behind a loopback request', () => {
  it("finds the client's socket by its local port and the server's port (not the server's own end)", () => {
    expect(socketInode(0xc350, 0x1f90, TABLE)).toBe('2222');
    expect(socketInode(0x1f90, 0xc350, TABLE)).toBe('3333');
    expect(socketInode(0xc351, 0x1f90, TABLE)).toBeUndefined();
  });

  it("looks the sender up before the server's own handler answers, while the client still waits", async () => {
    // Registered after the handler, yet it runs first: an answered client may exit at once and
    // take its socket with it, which made a lookup after the answer find no process.
    const before = seen.length;
    await fetch(`http://127.0.0.1:${port}/order`).then((r) => r.text());
    expect(recordedBeforeHandler.at(-1)).toBe(before + 1);
    expect(seen.at(-1)?.path).toBe('/order');
  });

  it('names the process that sent each request, among the candidates', async () => {
    const child = requestFromChild();
    candidates = [process.pid];
    // The child's pid is only known once it runs: it is a candidate only for the second request.
    const firstChild = await child;
    await fetch(`http://127.0.0.1:${port}/from-test`).then((r) => r.text());
    expect(seen.find((r) => r.path === '/from-test')?.pid).toBe(process.pid);
    // Not among the candidates: no process is named rather than the wrong one.
    expect(seen.find((r) => r.path === '/from-child')?.pid).toBeUndefined();
    expect(firstChild).not.toBe(process.pid);
  }, 60_000);

  it("names a child process by its own pid, not its parent's", async () => {
    const child = spawn(process.execPath, ['-e', `setTimeout(() => fetch('http://127.0.0.1:${port}/child-known').then((r) => r.text()), 300)`], {
      stdio: 'ignore',
    });
    candidates = [process.pid, child.pid!];
    await new Promise((resolve) => child.once('exit', resolve));
    expect(seen.find((r) => r.path === '/child-known')?.pid).toBe(child.pid);
  }, 60_000);
});
