import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox, type SandboxOptions, type Seed } from '../../sandbox/index.ts';

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
  const sandbox = await createSandbox({ delivery: { timeoutMs: 200, retryDelaysMs: [20, 40] }, ...options });
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
      received.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
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
