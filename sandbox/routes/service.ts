import type { FastifyPluginAsync } from 'fastify';
import { endpointList } from '../../shared/catalog/endpoints.ts';
import { BASE_PREFIXES } from '../http/bases.ts';
import { adminOnly } from '../plugins/admin-only.ts';
import { authentication } from '../plugins/authentication.ts';
import { faultInjection } from '../plugins/fault-injection.ts';
import { rateLimit, type RateLimitOptions } from '../plugins/rate-limit.ts';
import { apiKeyRoutes } from './api-key.ts';
import { directoryRoutes } from './directory.ts';
import { incidentRoutes } from './incidents.ts';
import { onCallRoutes } from './on-call.ts';
import { subscriptionRoutes } from './subscriptions.ts';

const resources = [apiKeyRoutes, incidentRoutes, onCallRoutes, directoryRoutes, subscriptionRoutes];

// Fail at start-up, not at the first request, when the catalog grows an endpoint the sandbox lacks.
const unserved = endpointList.filter((endpoint) => !resources.some((routes) => routes.endpointKeys.includes(endpoint.key)));
if (unserved.length > 0) throw new Error(`The sandbox serves no route for: ${unserved.map((endpoint) => endpoint.key).join(', ')}`);

export interface ServiceOptions {
  rateLimit: RateLimitOptions | false;
}

/**
 * The service as clients see it: every catalog endpoint under both bases. Its hooks run in
 * this order on every service request: key, rate limit, injected fault, admin rule. They stay
 * inside this context, so the 404 handler and the /_sandbox controls are not guarded by them.
 */
export const serviceRoutes: FastifyPluginAsync<ServiceOptions> = async (app, options) => {
  await app.register(authentication);
  if (options.rateLimit) await app.register(rateLimit, options.rateLimit);
  await app.register(faultInjection);
  await app.register(adminOnly);
  for (const prefix of BASE_PREFIXES) {
    for (const routes of resources) await app.register(routes, { prefix });
  }
};
