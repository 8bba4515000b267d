import { setTimeout as sleep } from 'node:timers/promises';
import { servicePath } from '../http/bases.ts';
import fp from 'fastify-plugin';
import '../http/fastify-types.ts';

/**
 * Answers a service request with an injected fault instead of the real answer. Registered
 * after authentication, so a fault still needs a good key, and before the handler. A fault
 * names the request by its path without base prefix, or by the catalog path (`{id}` and all).
 */
export const faultInjection = fp(
  async (app) => {
    app.decorateRequest('injectedFault', null);
    app.addHook('onRequest', async (request, reply) => {
      const endpoint = request.routeOptions.config.endpoint;
      const path = servicePath(request.url);
      const fault = app.faultList.take(request.method, endpoint ? [path, endpoint.path] : [path]);
      if (!fault) return;
      // The journal marks the answer as injected, so it never reads as a failure of the model.
      request.injectedFault = fault;
      if (fault.delayMs) {
        // A slow answer (a client's time-out test) must not outlive its request: when the client
        // goes, or a stop cuts it at the deadline, the wait ends too, and it never keeps the
        // process alive on its own (unref).
        const gone = new AbortController();
        const onClose = () => gone.abort();
        request.raw.socket?.once('close', onClose);
        try {
          await sleep(fault.delayMs, undefined, { ref: false, signal: gone.signal });
        } catch {
          // The client is gone: what follows writes to nobody, and ends the request.
        } finally {
          request.raw.socket?.off('close', onClose);
        }
      }
      // A string body goes out byte for byte, even under a JSON content type: truncated JSON stays truncated.
      return reply
        .code(fault.status)
        .headers(fault.headers ?? {})
        .type(fault.contentType ?? 'application/json; charset=utf-8')
        .send(fault.body);
    });
  },
  { name: 'fault-injection' },
);
