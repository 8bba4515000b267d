import { PassThrough } from 'node:stream';
import type { JSONRPCMessage, McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Drain } from '../shared/shutdown/drain.ts';

type Id = string | number;
const requestId = (message: JSONRPCMessage): Id | undefined =>
  'method' in message && 'id' in message && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
const cancelledId = (message: JSONRPCMessage): Id | undefined => {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};
const responseId = (message: JSONRPCMessage): Id | undefined =>
  !('method' in message) && 'id' in message && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;

/**
 * `pagerly mcp` on stdio, stopped by the drain (shared/shutdown/drain.ts). A host that closes
 * stdin is done asking, not done listening: the SDK's own transport would abort the calls in
 * flight on end-of-file and never answer them, so it reads a copy of stdin that ends only once
 * every request received has been answered (or cut at the deadline and answered so). SIGTERM
 * and Ctrl-C stop it the same way. Resolves once it has closed.
 */
export async function serveStdioUntilDrained(factory: McpServerFactory, drain: Drain, onerror: (error: Error) => void): Promise<void> {
  const input = new PassThrough();
  process.stdin.pipe(input, { end: false });
  let closedInput = false;
  const hostClosed = () => {
    if (closedInput) return;
    closedInput = true;
    // A host that sent SIGTERM and then closes stdin is not asking twice: only a signal forces.
    if (!drain.stopping.aborted) drain.stop('stdin closed');
  };
  process.stdin.once('end', hostClosed);
  process.stdin.once('close', hostClosed);
  const handle = serveStdio(factory, { transport: counted(new StdioServerTransport(input, process.stdout), drain), onerror });
  try {
    await drain.settled;
  } finally {
    process.stdin.off('end', hostClosed);
    process.stdin.off('close', hostClosed);
    process.stdin.unpipe(input);
    // Nothing more is read: a stdin still open (a stop by signal) must not keep the process alive.
    process.stdin.pause();
    await handle.close();
    input.end();
  }
}

/** The transport with each request counted in flight from its arrival until its answer is written. */
function counted(wire: Transport, drain: Drain): Transport {
  const open = new Map<Id, () => void>();
  const transport: Transport = {
    start: () => wire.start(),
    close: () => wire.close(),
    async send(message, options) {
      try {
        await wire.send(message, options);
      } finally {
        const id = responseId(message);
        if (id !== undefined) {
          open.get(id)?.();
          open.delete(id);
        }
      }
    },
  };
  Object.defineProperties(transport, {
    onmessage: {
      get: () => wire.onmessage,
      set(handler: Transport['onmessage']) {
        wire.onmessage =
          handler &&
          ((message, extra) => {
            const id = requestId(message);
            if (id !== undefined) {
              open.get(id)?.();
              open.set(id, drain.begin());
            }
            // The SDK sends no answer to a request its client cancelled: nothing is waited for.
            const cancelled = cancelledId(message);
            if (cancelled !== undefined) {
              open.get(cancelled)?.();
              open.delete(cancelled);
            }
            handler(message, extra);
          });
      },
    },
    onclose: { get: () => wire.onclose, set: (handler: Transport['onclose']) => (wire.onclose = handler) },
    onerror: { get: () => wire.onerror, set: (handler: Transport['onerror']) => (wire.onerror = handler) },
    setProtocolVersion: { get: () => wire.setProtocolVersion?.bind(wire) },
  });
  return transport;
}
