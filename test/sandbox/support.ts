import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type PersistedState, type Sandbox, type SandboxOptions, type Seed } from '../../sandbox/index.ts';

export { demoKeys } from '../../sandbox/index.ts';

export const INVALID_KEY_BODY = '[{"Error":"API Key is not valid"}]';
export const HOUR = 3_600_000;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface Running {
  sandbox: Sandbox;
  url: string;
  call(path: string, options?: { key?: string; method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<Answer>;
}

/** A sandbox listening on an ephemeral loopback port, with a plain-fetch caller. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Running> {
  // A time-out that only a hanging receiver reaches, not a busy machine's answer (tests of hanging ones set their own).
  const sandbox = await createSandbox({ delivery: { timeoutMs: 2_000, retryDelaysMs: [20, 40] }, ...options });
  const url = await sandbox.listen();
  return {
    sandbox,
    url,
    async call(path, { key, method = 'GET', body, rawBody, headers = {} } = {}) {
      const hasBody = body !== undefined || rawBody !== undefined;
      const response = await fetch(url + path, {
        method,
        headers: { ...(key === undefined ? {} : { 'x-apikey': key }), ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(hasBody ? { body: rawBody ?? JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
  };
}

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: any;
  /** The body as sent, byte for byte (as UTF-8). */
  raw: string;
  /** Date.now() when the whole request had arrived. */
  at: number;
}

export interface Receiver {
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

/**
 * A hook receiver on loopback. `answer` gives the status for the n-th request (0-based);
 * 'hang' never answers, to make the sandbox time out.
 */
export async function startReceiver(answer: (n: number) => number | 'hang' = () => 200): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const n = received.length;
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body: JSON.parse(raw), raw, at: Date.now() });
      const status = answer(n);
      if (status !== 'hang') response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a scripted receiver does with a request: answer with a status, never answer, or reset the connection. */
export type Reaction = number | 'hang' | 'reset';

export interface ScriptedRequest extends ReceivedHook {
  path: string;
  reaction: Reaction;
}

/** Requests being handled by any receiver sharing it: the most at once is `max`. */
export class InFlightGauge {
  now = 0;
  max = 0;
  enter(): void {
    this.now += 1;
    this.max = Math.max(this.max, this.now);
  }
  leave(): void {
    this.now -= 1;
  }
}

export interface ScriptedReceiver {
  /** Base URL; hooks go to `${base}/<anything>`, and the script sees the path. */
  base: string;
  received: ScriptedRequest[];
  /** The requests to one path, in order. */
  at(path: string): ScriptedRequest[];
  close(): Promise<void>;
}

/**
 * A hook receiver on loopback that serves many hook URLs: `script` decides, from the path and
 * how many requests that path had before (0-based), what to do. A status is answered after
 * `answerDelayMs`, so that requests overlap as they would with a real receiver. The gauge
 * counts a request from its arrival until it is answered, reset, or aborted by the sandbox.
 */
export async function startScriptedReceiver(
  script: (path: string, n: number) => Reaction,
  { gauge = new InFlightGauge(), answerDelayMs = 0 }: { gauge?: InFlightGauge; answerDelayMs?: number } = {},
): Promise<ScriptedReceiver> {
  const received: ScriptedRequest[] = [];
  const byPath = new Map<string, ScriptedRequest[]>();
  const server: Server = createServer((request, response) => {
    gauge.enter();
    let counted = true;
    const { socket } = request;
    const leave = () => {
      if (counted) gauge.leave();
      counted = false;
      socket.off('end', leave);
    };
    // The sandbox gave up (timeout) or went away: counted off as soon as its end of the
    // connection is seen, before anything it sends next.
    socket.once('end', leave);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const earlier = byPath.get(path) ?? [];
      const reaction = script(path, earlier.length);
      const raw = Buffer.concat(chunks).toString('utf8');
      const hook: ScriptedRequest = { path, reaction, headers: request.headers, body: JSON.parse(raw), raw, at: Date.now() };
      received.push(hook);
      byPath.set(path, [...earlier, hook]);
      if (reaction === 'hang') return;
      if (reaction === 'reset') {
        leave();
        request.socket.destroy();
        return;
      }
      setTimeout(() => {
        leave();
        if (!response.destroyed) response.writeHead(reaction).end();
      }, answerDelayMs);
    });
    response.on('close', leave);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    at: (path) => byPath.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh empty folder under the system's temporary folder, and how to remove it. */
export async function temporaryFolder(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'pagerly-sandbox-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Polls until `condition` holds; fails after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A tiny world: one organization with one team and no rotation, one without teams. */
export const tinySeed: Seed = {
  clockStart: '2026-11-02T08:00:00Z',
  organizations: [
    {
      id: 'org_solo',
      name: 'Solo',
      people: [{ id: 'usr_sam', name: 'Sam Solo', email: 'sam@solo.example', imageurl: null, phone: null, role: 'owner' }],
      apiKeys: [{ key: 'sbx_solo_owner_0000000000000001', personId: 'usr_sam' }],
      teams: [],
      rotations: [],
    },
  ],
};

/** A state file of the demo world with one Platform subscription (sub_0001) to `url`. */
export const demoStateFile = (url: string, extra: { pending: PersistedState['pending']; events: PersistedState['events'] }): PersistedState => ({
  format: 'pagerly-sandbox-state',
  version: 1,
  savedAt: '2026-11-02T08:00:00.000Z',
  ids: { sub: 9, evt: 3 },
  subscriptions: [{ id: 'sub_0001', orgId: 'org_acme', platform: 'zapier', url, teamId: 'team_platform', created_at: '2026-11-02T08:00:00.000Z' }],
  onCall: {},
  events: extra.events,
  pending: extra.pending,
});

/** A Platform on-call change as a state file keeps it. */
export const platformEvent = (id: string) => ({
  id,
  type: 'oncall.changed',
  occurred_at: '2026-11-02T09:00:00.000Z',
  team: { id: 'team_platform', name: 'Platform' },
  previous: [],
  current: [],
});

/** A first attempt, due at once, as a state file keeps it. */
export const pendingDelivery = (eventId: string, subscriptionId: string, url: string) => ({
  eventId,
  subscriptionId,
  url,
  nextAttempt: 1,
  dueAt: '2026-11-02T08:00:00.000Z',
});
