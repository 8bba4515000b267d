import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fillPath, type Endpoint } from '../../shared/catalog/endpoint.ts';
import { endpointList, type EndpointKey, type Endpoints } from '../../shared/catalog/endpoints.ts';
import { check, describeProblems } from '../../shared/validation.ts';
import { badInput } from '../http/service-error.ts';
import type { Caller, WorldState } from '../world/world.ts';
import '../http/fastify-types.ts';

/** What a handler gets: the checked input, who is asking, and the world as of `now`. */
export interface Call<K extends EndpointKey> {
  readonly input: z.output<Endpoints[K]['input']>;
  readonly caller: Caller;
  readonly world: WorldState;
  readonly now: Date;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/** Returns the answer body; sets a status other than 200 on `reply` itself. */
export type EndpointHandler<K extends EndpointKey> = (call: Call<K>) => unknown;

export type CatalogRoutes = FastifyPluginAsync & { readonly endpointKeys: readonly string[] };

type AnyHandler = (call: Omit<Call<EndpointKey>, 'input'> & { input: unknown }) => unknown;

/**
 * A route plugin for some endpoints of the catalog. Method, path (`{id}` → `:id`), admin rule
 * and input schema all come from the catalog entry; the plugin brings only the handlers.
 */
export function catalogRoutes<K extends EndpointKey>(name: string, handlers: { readonly [P in K]: EndpointHandler<P> }): CatalogRoutes {
  const served = endpointList.filter((endpoint) => Object.hasOwn(handlers, endpoint.key));

  const plugin: FastifyPluginAsync = async (app) => {
    for (const endpoint of served) {
      // Safe: `input` below was parsed with this very endpoint's schema.
      const handle = handlers[endpoint.key as K] as unknown as AnyHandler;
      app.route({
        method: endpoint.method,
        url: fastifyPath(endpoint.path),
        config: { endpoint },
        handler: async (request, reply) =>
          handle({ input: readInput(endpoint, request), caller: callerOf(request), world: app.world, now: app.sandboxClock.now(), request, reply }),
      });
    }
  };
  return Object.assign(plugin, {
    endpointKeys: served.map((endpoint) => endpoint.key),
    [Symbol.for('fastify.display-name')]: name,
  });
}

/** `/o/zapier/subscribe/{id}` → `/o/zapier/subscribe/:id`. */
export const fastifyPath = (path: string) => fillPath(path, (name) => `:${name}`);

/** Path fields, then the query (GET, DELETE) or the JSON body (POST), as `endpoint.ts` places them. */
function readInput(endpoint: Endpoint, request: FastifyRequest): unknown {
  const fields = endpoint.method === 'POST' ? bodyFields(request.body) : (request.query as object);
  const result = check(endpoint.input, { ...fields, ...(request.params as object) });
  if (!result.ok) throw badInput(describeProblems(result.problems));
  return result.value;
}

function bodyFields(body: unknown): object {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badInput('The request body must be a JSON object');
  return body;
}

function callerOf(request: FastifyRequest): Caller {
  // Only reachable if the authentication plugin were left out: a bug, hence a 500.
  if (!request.caller) throw new Error('A service route ran without an authenticated caller');
  return request.caller;
}
