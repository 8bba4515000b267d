import { errorBody } from '../shared/schemas/error-body.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorReplies } from './plugins/error-replies.ts';
import { jsonBodies } from './plugins/json-bodies.ts';
import type { RateLimitOptions } from './plugins/rate-limit.ts';
import { sandboxState, type SandboxState } from './plugins/sandbox-state.ts';
import { controlRoutes } from './routes/controls.ts';
import { serviceRoutes } from './routes/service.ts';

export interface AppOptions {
  state: SandboxState;
  rateLimit: RateLimitOptions | false;
  controls: boolean;
  logger: boolean;
  /** Awaited before every reply is sent, e.g. until the state file holds what the request changed. */
  beforeReply?: () => Promise<void>;
}

/** The sandbox's HTTP side: state decorators, the error shape, JSON bodies, the service, the controls. */
export async function buildApp({ state, rateLimit, controls, logger, beforeReply }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger });
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
  await app.register(serviceRoutes, { rateLimit });
  if (controls) await app.register(controlRoutes);
  return app;
}
