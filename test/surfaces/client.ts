import type { PagerlyClient } from '../../shared/client.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { settle, type SurfaceDriver, type Target } from './driver.ts';

/** The error a typed client throws, as the battery reads it: its shared error code. */
export function clientError(error: unknown): { message: string; kind: string; own: boolean } {
  if (isPagerlyError(error)) return { message: error.message, kind: error.code, own: true };
  return { message: String((error as Error)?.message ?? error), kind: String((error as Error)?.name), own: false };
}

/**
 * A driver for any typed client built by `clientFor`: the real one below, and in the battery's
 * own test a client on a deliberately leaky transport.
 */
export function typedClientDriver(name: string, clientFor: (target: Target) => PagerlyClient): SurfaceDriver {
  return {
    name,
    read: (target) => settle(() => clientFor(target).listTeams(), clientError),
    write: (target) => settle(() => clientFor(target).createOrUpdateIncident({ title: 'Disk full' }), clientError),
    checkKey: (target) => settle(() => clientFor(target).checkApiKey(), clientError),
    redirect: { kind: 'redirect', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
    hang: 'knob',
  };
}

/** shared/node-client.ts on got, retries as by default but with a short backoff so retried faults stay quick. */
export const clientDriver = typedClientDriver('typed client', ({ baseUrl, apiKey, timeoutMs }) =>
  createNodeClient({ apiKey, baseUrl, backoffMs: 10, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
);
