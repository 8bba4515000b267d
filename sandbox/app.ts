import { errorBody } from '../shared/schemas/error-body.ts';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { errorReplies } from './plugins/error-replies.ts';
import { hostCheck, refusedHost } from './plugins/host-check.ts';
import { jsonBodies } from './plugins/json-bodies.ts';
import type { RateLimitOptions } from './plugins/rate-limit.ts';
import { sandboxState, type SandboxState } from './plugins/sandbox-state.ts';
import { consolePlugin, type ConsoleOptions } from './console/plugin.ts';
import { controlRoutes } from './routes/controls.ts';
import { serviceRoutes } from './routes/service.ts';
import type { AllowedHosts } from './http/allowed-hosts.ts';
import './http/fastify-types.ts';

export interface AppOptions {
  state: SandboxState;
  rateLimit: RateLimitOptions | false;
  controls: boolean;
  /** Hosts answered besides the sandbox's own names (`sandbox/http/allowed-hosts.ts`); `true`: any. */
  allowedHosts: AllowedHosts;
  /** The console at `/` (with the controls only); before the service, so its hooks see every request. */
  console?: ConsoleOptions;
  logger: boolean;
  /** Awaited before every reply is sent, e.g. until the state file holds what the request changed. */
  beforeReply?: () => Promise<void>;
}

/** A request Node cannot even parse (e.g. headers over 16 kB): answered on the socket, in the error shape. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(errorBody(status === 431 ? 'Request headers are too large (over 16 kB)' : 'Malformed HTTP request'));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The sandbox's HTTP side: the Host rule, state decorators, the error shape, JSON bodies, the service, the controls. */
export async function buildApp({ state, rateLimit, controls, allowedHosts, console, logger, beforeReply }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Ids may be up to 200 characters (shared schemas); the router's default limit is 100.
    routerOptions: { maxParamLength: 2_000 },
    // Requests the router or Node's parser refuse still get the service's error shape.
    frameworkErrors: (error, request, reply) => {
      // The handler's reply is typed for route schemas it has none of: a plain reply here.
      const plain = reply as unknown as FastifyReply;
      // No hook runs for these: the Host rule is applied here too, so no answer reaches a foreign Host.
      if (refusedHost(request as unknown as FastifyRequest, plain, allowedHosts)) return;
      plain
        .code(400)
        .type('application/json; charset=utf-8')
        .send(errorBody(`Malformed request: ${error.message}`));
    },
    clientErrorHandler: answerClientError,
  });
  // Every route as registered (Fastify keeps no list of its own), so a test can walk each one.
  const routes: { method: string; url: string }[] = [];
  app.decorate('routeList', routes);
  app.addHook('onRoute', ({ method, url }) => {
    for (const one of [method].flat()) routes.push({ method: one, url });
  });
  await app.register(hostCheck, { allowedHosts });
  if (beforeReply) {
    app.addHook('onSend', async (_request, reply, payload) => {
      try {
        await beforeReply();
        return payload;
      } catch (error) {
        // The change is made but could not be saved: say so in the service's error shape, not Fastify's.
        reply.code(500).type('application/json; charset=utf-8');
        return JSON.stringify(errorBody(`The sandbox could not save its state: ${(error as Error).message}`));
      }
    });
  }
  await app.register(sandboxState, state);
  await app.register(errorReplies);
  await app.register(jsonBodies);
  if (controls && console) await app.register(consolePlugin, console);
  await app.register(serviceRoutes, { rateLimit });
  if (controls) await app.register(controlRoutes);
  return app;
}
