import type { IncomingMessage, ServerResponse } from 'node:http';
import { loopbackServer } from './loopback-server.ts';

/** What the server does with one request. */
export type Behaviour =
  | { kind: 'answer'; status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  /** Destroys the connection before any byte of an answer. */
  | { kind: 'reset' }
  /**
   * Sends the status line, headers (with the full Content-Length, or chunked) and part of the
   * body, then destroys the connection.
   */
  | { kind: 'reset-mid-body'; status: number; body: string; cutAt: number; chunked?: boolean }
  /** Sends headers and part of the body, then nothing more (the connection stays open). */
  | { kind: 'stall-mid-body'; status: number; body: string; cutAt: number }
  /** Never answers. */
  | { kind: 'hang' };

export interface Arrival {
  method: string;
  url: string;
  at: number;
  apiKey: string | undefined;
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}, delayMs?: number): Behaviour => ({
  kind: 'answer',
  status,
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  ...(delayMs === undefined ? {} : { delayMs }),
});

/**
 * A loopback server that plays a script: the n-th request gets `script[n]` (the last entry
 * for every request after it). It counts what arrived and when, so a test can tell a retry
 * from a single attempt.
 */
export async function faultServer(script: readonly Behaviour[]) {
  const arrivals: Arrival[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const play = (behaviour: Behaviour, request: IncomingMessage, response: ServerResponse) => {
    switch (behaviour.kind) {
      case 'answer': {
        const send = () => response.writeHead(behaviour.status, behaviour.headers ?? {}).end(behaviour.body);
        if (!behaviour.delayMs) return send();
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) send();
        }, behaviour.delayMs);
        timers.add(timer);
        return;
      }
      case 'reset':
        request.socket.destroy();
        return;
      case 'reset-mid-body':
      case 'stall-mid-body': {
        const chunked = behaviour.kind === 'reset-mid-body' && behaviour.chunked;
        response.writeHead(behaviour.status, {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(behaviour.body)) }),
        });
        response.write(behaviour.body.slice(0, behaviour.cutAt));
        // Let the part reach the client before the connection goes.
        if (behaviour.kind === 'reset-mid-body') {
          const timer = setTimeout(() => {
            timers.delete(timer);
            request.socket.destroy();
          }, 20);
          timers.add(timer);
        }
        return;
      }
      case 'hang':
        return;
    }
  };
  const server = await loopbackServer((request, response) => {
    const header = request.headers['x-apikey'];
    arrivals.push({ method: request.method ?? 'GET', url: request.url ?? '/', at: performance.now(), apiKey: Array.isArray(header) ? header[0] : header });
    const behaviour = script[Math.min(arrivals.length - 1, script.length - 1)];
    // Read the request body first, so a reset is a reset of the answer, not of the upload.
    request.resume();
    request.on('end', () => play(behaviour!, request, response));
  });
  return {
    url: server.url,
    arrivals,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await server.close();
    },
  };
}
export type FaultServer = Awaited<ReturnType<typeof faultServer>>;

/** Fails the test if anything escapes as an uncaught exception or unhandled rejection while `work` runs. */
export async function withoutStrayErrors<T>(work: () => Promise<T>): Promise<{ result: T; stray: unknown[] }> {
  const stray: unknown[] = [];
  const onError = (error: unknown) => stray.push(error);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  try {
    const result = await work();
    // Give a late socket error the chance to surface.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { result, stray };
  } finally {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
  }
}
