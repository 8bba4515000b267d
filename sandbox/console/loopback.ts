import type { FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../shared/http/loopback.ts';

/**
 * Why this request may not reach the console or the keyless controls, or undefined when it may.
 * Its Host is checked before, on every route (`plugins/host-check.ts`); here, who sends it: a
 * request from another machine is refused unless `allowRemote`, and a change sent by a page of
 * another origin is refused always (cross-site request forgery: the controls take no key to
 * prove who asks).
 */
export function refusal(request: FastifyRequest, allowRemote: boolean): string | undefined {
  const { host, origin } = request.headers;
  if (!allowRemote && !isLoopbackAddress(request.socket.remoteAddress)) {
    return 'The sandbox console and its /_sandbox controls answer only requests from this machine; to open them to others, create the sandbox with console: { allowRemote: true }';
  }
  const changes = request.method !== 'GET' && request.method !== 'HEAD';
  if (
    changes &&
    (request.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`))
  ) {
    return 'The sandbox controls take changes only from the console itself or from a program (no cross-site requests)';
  }
  return undefined;
}
