// The one local receiver behind every subscription of the fan-out: it keeps what arrived on
// which path and when, and counts connections. It answers 200 at once, so the figures are the
// sender's, not its own; paths that `hangs` names are taken in and never answered (kept in
// `hung`), as a target that accepts the connection and then stalls.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_ID_HEADER } from '../shared/schemas/on-call-change-event.ts';

export interface Received {
  path: string;
  headerEventId: string | undefined;
  body: { id?: unknown; type?: unknown; team?: { name?: unknown } } | undefined;
  /** performance.now() when the whole body was in. */
  at: number;
}

export async function startHookReceiver({ hangs = () => false }: { hangs?: (path: string) => boolean } = {}) {
  const received: Received[] = [];
  const hung: Received[] = [];
  let connections = 0;
  let waiter: { count: number; resolve: () => void } | undefined;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const header = request.headers[EVENT_ID_HEADER];
      const path = request.url ?? '/';
      const hook: Received = { path, headerEventId: typeof header === 'string' ? header : undefined, body: parse(Buffer.concat(chunks).toString('utf8')), at };
      if (hangs(path)) {
        hung.push(hook);
        return;
      }
      received.push(hook);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      if (waiter && received.length >= waiter.count) waiter.resolve();
    });
  });
  server.on('connection', () => (connections += 1));
  // Node's default listen backlog (511), as a plain Node receiver would have.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    hung,
    get connections() {
      return connections;
    },
    /** Resolves once `count` deliveries are in. */
    whenReceived(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => (waiter = { count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parse(text: string): Received['body'] {
  try {
    return JSON.parse(text) as Received['body'];
  } catch {
    return undefined;
  }
}
