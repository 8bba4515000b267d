import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '../../shared/schemas/error-body.ts';
import { hostRefusal, type AllowedHosts } from '../http/allowed-hosts.ts';

export interface HostCheckOptions {
  allowedHosts: AllowedHosts;
}

/**
 * The host a request names: its Host header, or the authority of an absolute-form target
 * (`GET http://name:port/path`), which a server must take instead (RFC 9112, 3.2.2).
 */
function namedHost(request: FastifyRequest): string | undefined {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(request.raw.url ?? '');
  return absolute ? absolute[1] : request.headers.host;
}

/**
 * Answers 403 and returns true when the request's Host does not name the sandbox
 * (`http/allowed-hosts.ts`). The one place the rule is applied: the hook below, and the
 * answer to a request the router could not even read.
 */
export function refusedHost(request: FastifyRequest, reply: FastifyReply, allowedHosts: AllowedHosts): boolean {
  const { localAddress, localPort } = request.socket;
  const why = hostRefusal({ host: namedHost(request), localAddress, localPort }, allowedHosts);
  if (why) reply.code(403).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(errorBody(why));
  return why !== undefined;
}

/**
 * The Host rule on every request, whatever it reaches: the service under both bases, the
 * console and its feed, the /_sandbox controls, a 404, any method. Registered first, so a
 * refused request reaches no key check, rate limit, injected fault or route, and changes
 * nothing.
 */
export const hostCheck = fp<HostCheckOptions>(
  async (app, { allowedHosts }) => {
    app.addHook('onRequest', async (request, reply) => {
      if (refusedHost(request, reply, allowedHosts)) return reply;
    });
  },
  { name: 'host-check' },
);
