import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { INVALID_KEY_TEXT } from '../../shared/schemas/error-body.ts';
import { ServiceError } from '../http/service-error.ts';
import fp from 'fastify-plugin';
import '../http/fastify-types.ts';

/**
 * `X-APIKEY` on every service request. A missing or unknown key gets the documented answer,
 * 400 `[{"Error":"API Key is not valid"}]`; a good one sets `request.caller`, the person the
 * key acts as. Runs before the body is read, so a bad key is told so whatever it sent.
 */
export const authentication = fp(
  async (app) => {
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      const presented = request.headers[API_KEY_HEADER.toLowerCase()];
      const caller = typeof presented === 'string' && presented !== '' ? app.world.authenticate(presented) : undefined;
      if (!caller) throw new ServiceError(400, INVALID_KEY_TEXT);
      request.caller = caller;
    });
  },
  { name: 'authentication' },
);
