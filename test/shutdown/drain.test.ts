import { afterEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { createDrain, type Drain, exitCodeForSignal, SAME_REQUEST_MS } from '../../shared/shutdown/drain.ts';
import { drainHttpServer } from '../../shared/shutdown/http-server.ts';

/**
 * The drain rule itself (shared/shutdown/), in process: a server-sent event stream ended by the
 * `endStreams` hook does not hold the drain open; one that is not holds it to the deadline; a
 * request that reaches a draining server on an open connection is never handled.
 */

const servers: Server[] = [];
const drains: Drain[] = [];
afterEach(async () => {
  for (const drain of drains.splice(0)) drain.dispose();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/**
 * `/events`: a stream that never ends on its own; `/slow`: answers after 400 ms; `/streamed`:
 * its headers at once, its end after 400 ms (as an MCP call answered as a stream); anything else at once.
 */
async function server(options: { endStreams: boolean; deadlineMs: number }) {
  const streams = new Set<ServerResponse>();
  const handled: string[] = [];
  const http = createServer((req, res) => {
    handled.push(req.url ?? '');
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: hello\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
    } else if (req.url === '/slow') setTimeout(() => res.end('slow done'), 400);
    else if (req.url === '/streamed') {
      res.writeHead(200, { 'content-type': 'text/plain' }).write('part ');
      setTimeout(() => res.end('streamed done'), 400);
    } else res.end('ok');
  });
  servers.push(http);
  const drain = createDrain({
    deadlineMs: options.deadlineMs,
    answerGraceMs: 100,
    signals: [],
    exit: () => undefined,
    ...(options.endStreams
      ? {
          endStreams: () => {
            for (const res of streams) res.end('event: bye\ndata: closing\n\n');
          },
        }
      : {}),
  });
  drains.push(drain);
  const { closed } = drainHttpServer(http, drain);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return { drain, closed, handled, port: (http.address() as AddressInfo).port };
}

function openStream(port: number): Promise<{ text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/events', agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({ text: () => text, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the drain', () => {
  it('ends server-sent event streams through endStreams at the start, so they do not hold it to the deadline', async () => {
    const { drain, closed, port } = await server({ endStreams: true, deadlineMs: 10_000 });
    const stream = await openStream(port);
    expect(drain.inFlight).toBe(1);
    const asked = Date.now();
    drain.stop('SIGTERM');
    const outcome = await drain.settled;
    await closed;
    await stream.ended;
    expect(Date.now() - asked).toBeLessThan(2_000);
    expect(outcome).toEqual({ reason: 'SIGTERM', cut: 0, abandoned: 0 });
    expect(stream.text()).toContain('event: bye');
  });

  it('without the hook, a stream holds it until the deadline and is then closed', async () => {
    const { drain, closed, port } = await server({ endStreams: false, deadlineMs: 300 });
    const stream = await openStream(port);
    drain.stop('SIGTERM');
    expect(await drain.settled).toEqual({ reason: 'SIGTERM', cut: 1, abandoned: 1 });
    await closed;
    await stream.ended;
  });

  /** Two requests on one connection: the first slow, the second sent once the stop began. */
  async function twoOnOneConnection(port: number, first: string, handled: string[], drain: Drain) {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk));
    const gone = once(socket, 'close');
    socket.write(`GET ${first} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    while (!handled.includes(first)) await new Promise((resolve) => setTimeout(resolve, 10));
    drain.stop('SIGTERM');
    socket.write('GET /after HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await drain.settled;
    await gone;
    return raw;
  }

  it('a response still to come says Connection: close; a request after it on that connection is not served', async () => {
    const { drain, closed, handled, port } = await server({ endStreams: false, deadlineMs: 5_000 });
    const raw = await twoOnOneConnection(port, '/slow', handled, drain);
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\nconnection: close\r\n[\s\S]*slow done$/i);
    expect(handled).toEqual(['/slow']);
  });

  it('a request on a kept-alive connection after the stop gets 503 with Retry-After, and reaches no handler', async () => {
    const { drain, closed, handled, port } = await server({ endStreams: false, deadlineMs: 5_000 });
    // The first answer's headers (keep-alive) went out before the stop: the connection stays open for the next request.
    const raw = await twoOnOneConnection(port, '/streamed', handled, drain);
    await closed;
    expect(raw).toContain('streamed done');
    expect(raw).toMatch(/HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*retry-after: 1\r\n[\s\S]*connection: close/i);
    expect(handled).toEqual(['/streamed']);
  });

  it('a second request to stop ends it at once, with the code a shell gives the signal; a copy of the first is no second', async () => {
    const codes: number[] = [];
    const drain = createDrain({ deadlineMs: 10_000, signals: [], exit: (code) => codes.push(code) });
    drains.push(drain);
    drain.stop('SIGINT');
    // A terminal's Ctrl-C, passed on by npm a moment later: the same request.
    drain.stop('SIGINT');
    expect(codes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, SAME_REQUEST_MS + 50));
    drain.stop('SIGTERM');
    drain.stop('SIGINT');
    expect(codes).toEqual([143, 130]);
    expect([exitCodeForSignal('SIGINT'), exitCodeForSignal('SIGTERM')]).toEqual([130, 143]);
  });
});
