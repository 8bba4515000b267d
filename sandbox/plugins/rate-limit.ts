import { ServiceError } from '../http/service-error.ts';
import fp from 'fastify-plugin';
import '../http/fastify-types.ts';

export interface RateLimitOptions {
  /** Requests each key may make per window. */
  limit: number;
  windowMs: number;
  /** Milliseconds on a clock that only goes forward (default `performance.now`); a test moves its own. */
  now?: () => number;
}

/**
 * A fixed window per API key (assumption `limits`): over the limit, 429 in the error shape
 * with `Retry-After` in whole seconds. Measured in wall time, not sandbox time, since it is
 * about how fast a client calls; a fixed sandbox clock would never open a new window.
 */
export const rateLimit = fp<RateLimitOptions>(
  async (app, { limit, windowMs, now: clock = () => performance.now() }) => {
    const windows = new Map<string, { startedAt: number; count: number }>();

    app.addHook('onRequest', async (request) => {
      const keyId = request.caller?.keyId;
      if (!keyId) return;
      const now = clock();
      let window = windows.get(keyId);
      if (!window || now - window.startedAt >= windowMs) {
        window = { startedAt: now, count: 0 };
        windows.set(keyId, window);
      }
      window.count += 1;
      if (window.count <= limit) return;

      const seconds = Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
      throw new ServiceError(429, `Rate limit exceeded; retry after ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`, {
        'retry-after': String(seconds),
      });
    });
  },
  { name: 'rate-limit' },
);
