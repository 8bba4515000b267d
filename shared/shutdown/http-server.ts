import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createDrain, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, type Drain, type DrainOptions } from './drain.ts';

/** What a request that arrives during the drain is told: try again in a moment (at another instance). */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

/**
 * An HTTP server under the drain's rule (drain.ts), whatever answers its requests (our own
 * handler, Fastify):
 * - each request counts as in flight until its response is done (or its connection closed);
 * - once a stop is asked, the server stops accepting connections (a new one is refused), idle
 *   kept-alive connections are closed, responses still to come say `Connection: close`, and a
 *   request that still arrives on a kept-alive connection gets `503` with `Retry-After` and
 *   reaches no handler;
 * - each connection is closed as soon as its last response is written, never mid-answer;
 * - whatever is still open once the drain has settled (past the deadline) is closed.
 * `endStreams` ends this server's long-lived responses (server-sent events) when the stop
 * begins, beside the drain's own hook.
 *
 * Call it once the server's own request listener is attached: that listener then runs only
 * for the requests the drain lets through.
 */
export function drainHttpServer(server: Server, drain: Drain, endStreams?: () => void): { readonly closed: Promise<void> } {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  const open = new Set<ServerResponse>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (drain.stopping.aborted) {
      refuse(res);
      return;
    }
    const end = drain.begin();
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      end();
      // The response is written: its connection goes now rather than wait for the last one.
      if (drain.stopping.aborted) server.closeIdleConnections();
    });
    for (const handler of handlers) handler.call(server, req, res);
  });

  const whenStopping = new Promise<void>((resolve) => {
    if (drain.stopping.aborted) resolve();
    else drain.stopping.addEventListener('abort', () => resolve(), { once: true });
  });
  const closed = whenStopping.then(async () => {
    endStreams?.();
    for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
    // Stops accepting, and (Node 19 and later) closes the idle kept-alive connections.
    const listening = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await drain.settled;
    server.closeAllConnections();
    await listening;
  });
  return { closed };
}

/** A request on a kept-alive connection after the stop began: not taken, and told when to come back. */
function refuse(res: ServerResponse): void {
  const body = JSON.stringify({ error: 'This server is shutting down; send the request again (to another instance).' });
  res.writeHead(503, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(DRAINING_RETRY_AFTER_SECONDS),
    connection: 'close',
  });
  res.end(body);
}

export interface StopOnSignalsOptions extends Pick<DrainOptions, 'endStreams' | 'note' | 'what'> {
  /** The deadline, in seconds (default 25). */
  readonly deadlineSeconds?: number | undefined;
  /** Runs once the requests in flight have answered and the server is closed: save state, stop timers. */
  readonly close: () => Promise<void>;
}

/**
 * A server process under the drain's rule, whole: SIGTERM or SIGINT stops it taking requests,
 * lets those in flight answer (up to the deadline), then runs `close`; the process then ends
 * with exit 0 as nothing holds it open (exit 1 when `close` fails); a second signal ends it at
 * once. `endStreams` ends long-lived responses (server-sent events) at the start.
 */
export function stopOnSignals(server: Server, options: StopOnSignalsOptions): Drain {
  const drain = createDrain({
    deadlineMs: Math.round((options.deadlineSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS) * 1000),
    ...(options.endStreams ? { endStreams: options.endStreams } : {}),
    ...(options.note ? { note: options.note } : {}),
    ...(options.what ? { what: options.what } : {}),
  });
  const { closed } = drainHttpServer(server, drain);
  void closed
    .then(() => options.close())
    .then(
      () => {
        drain.dispose();
        process.exitCode = 0;
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  return drain;
}
