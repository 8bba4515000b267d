import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * What a rolling deploy does to one of our processes, with real processes: the real CLI or
 * sandbox as a child, a slow loopback service behind it, SIGTERM while a request is in flight.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));

/** The id the slow service gives the incident it opens. */
export const SLOW_INCIDENT_ID = 'INC-SLOW-1';

export interface SlowService {
  readonly url: string;
  /** Each request as it arrived: `METHOD /path`. */
  readonly received: string[];
  /** Requests whose answer was written whole. */
  readonly answered: string[];
  close(): Promise<void>;
}

/**
 * A loopback stand-in of the service whose writes and on-call lookups take `delayMs`: a create
 * (`POST /o/incident`) answers 201 with `SLOW_INCIDENT_ID`; the team list answers at once with
 * one team, its on-call lookup after the delay.
 */
export async function slowService(delayMs: number): Promise<SlowService> {
  const received: string[] = [];
  const answered: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const reply = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, after: number) => {
    const line = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), () => answered.push(line));
    }, after);
    timers.add(timer);
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    received.push(`${req.method} ${path}`);
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && path === '/o/incident') reply(req, res, 201, { id: SLOW_INCIDENT_ID, title: 'Deploy failed', status: 'triggered' }, delayMs);
      else if (path === '/pagerly/o/zapier/allteams') reply(req, res, 200, [{ id: 'T1', name: 'Payments' }], 0);
      else if (path === '/pagerly/o/currentusers')
        reply(req, res, 200, [{ id: 'U1', name: 'Ada Lovelace', email: 'ada@example.com', imageurl: null }], delayMs);
      else reply(req, res, 404, [{ Error: 'Not found' }], 0);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answered,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Child {
  readonly process: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code (or 128 + the signal's number when a signal ended it) and when, in ms since `since`. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Map<ChildProcess, Promise<unknown>>();

/** Started in a process group of its own, so `killAll` can end it and anything it started on every path. */
export function start(command: string, args: readonly string[], env: Record<string, string>, stdin: 'pipe' | 'ignore' = 'ignore'): Child {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Kept until its pipes are closed too, not merely until it exited: nothing of it outlives the test.
  children.set(
    child,
    new Promise((resolve) =>
      child.once('close', () => {
        children.delete(child);
        resolve(undefined);
      }),
    ),
  );
  return { process: child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** `pagerly ...args` as a service manager starts it. */
export const pagerly = (args: readonly string[], env: Record<string, string>, stdin: 'pipe' | 'ignore' = 'ignore') =>
  start(process.execPath, [BIN, ...args], env, stdin);

/** Every child still running, and its process group, gets SIGKILL; resolves once they are gone: for afterEach. */
export async function killAll(): Promise<void> {
  const closing = [...children];
  children.clear();
  for (const [child] of closing) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(closing.map(([, closed]) => closed)), new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
  clearTimeout(timer);
}

export async function waitFor(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `{code, ms}`: the exit and how long after `since` it came, or a failure after `limitMs`. */
export async function exitWithin(child: Child, since: number, limitMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${limitMs} ms after the signal:\n${child.stderr()}`)), limitMs);
  });
  try {
    const exit = await Promise.race([child.exited, limit]);
    return { ...exit, ms: Date.now() - since };
  } finally {
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
