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
}

/** The sandbox's HTTP side: state decorators, the error shape, JSON bodies, the service, the controls. */
export async function buildApp({ state, rateLimit, controls, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger });
  await app.register(sandboxState, state);
  await app.register(errorReplies);
  await app.register(jsonBodies);
  await app.register(serviceRoutes, { rateLimit });
  if (controls) await app.register(controlRoutes);
  return app;
}
