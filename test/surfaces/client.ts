import type { PagerlyClient } from '../../shared/client.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { everyoneOnCall, onCallByTeam } from '../../shared/on-call/by-team.ts';
import { INPUT, settle, type ErrorKind, type SurfaceDriver, type Target } from './driver.ts';

/** The error a typed client throws, as the battery reads it: its shared error code. */
export function clientError(error: unknown): { message: string; kind: ErrorKind; native: string; own: boolean } {
  if (isPagerlyError(error)) return { message: error.message, kind: error.code, native: error.name, own: true };
  const name = String((error as Error)?.name);
  return { message: String((error as Error)?.message ?? error), kind: 'unknown', native: name, own: false };
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
    onCall: (target) => settle(() => clientFor(target).listOnCallUsers({ teamname: INPUT.team }), clientError),
    everyoneOnCall: (target) =>
      settle(async () => {
        const { onCall, failed } = everyoneOnCall(await onCallByTeam(clientFor(target)));
        if (failed[0]) throw failed[0].error;
        return onCall;
      }, clientError),
    directoryEntry: (target) => settle(() => clientFor(target).getDirectoryEntry({ email: target.email ?? INPUT.email }), clientError),
    directoryWrite: (target) => settle(() => clientFor(target).updateDirectoryPhone({ email: target.email ?? INPUT.email, phone: INPUT.phone }), clientError),
    redirect: { native: 'RedirectError', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
    hang: 'knob',
  };
}

/**
 * shared/node-client.ts on got, retries as by default but with a short backoff so retried
 * faults stay quick, and a Retry-After longer than a second not waited for (the error then
 * says when to retry, which is what the table reads).
 */
export const clientDriver = typedClientDriver('typed client', ({ baseUrl, apiKey, timeoutMs }) =>
  createNodeClient({ apiKey, baseUrl, backoffMs: 10, maxRetryAfterMs: 1_000, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
);

/** The same client on the fetch transport, the client package's default; no proxy, whatever the machine has set. */
export const fetchClientDriver: SurfaceDriver = {
  ...typedClientDriver('typed client (fetch)', ({ baseUrl, apiKey, timeoutMs }) =>
    createFetchClient({ apiKey, baseUrl, backoffMs: 10, maxRetryAfterMs: 1_000, proxyEnv: {}, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  ),
  surface: 'Client',
};
