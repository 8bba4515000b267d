import fp from 'fastify-plugin';

/**
 * Fastify's JSON parser (prototype-poisoning checks and all), except that an empty body on
 * a GET or DELETE is no body rather than an error: many HTTP clients send
 * `content-type: application/json` on every request, and those requests carry their input
 * in the query. An empty POST body stays an error, since a POST needs its JSON object.
 */
export const jsonBodies = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' && request.method !== 'POST') done(null, undefined);
      else parseJson(request, body as string, done);
    });
  },
  { name: 'json-bodies' },
);
