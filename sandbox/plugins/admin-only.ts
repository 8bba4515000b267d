import { forbidden } from '../http/service-error.ts';
import fp from 'fastify-plugin';
import '../http/fastify-types.ts';

const ADMIN_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

/** The catalog's `adminOnly` endpoints refuse keys of people who are not org admins. */
export const adminOnly = fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.config.endpoint?.adminOnly) return;
      if (request.caller && ADMIN_ROLES.has(request.caller.person.role)) return;
      throw forbidden('Only an org admin can do this; this API key was created by someone who is not an org admin.');
    });
  },
  { name: 'admin-only' },
);
