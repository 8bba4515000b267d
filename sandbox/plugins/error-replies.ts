import type { FastifyError } from 'fastify';
import { errorBody } from '../../shared/schemas/error-body.ts';
import { pathOf } from '../http/bases.ts';
import { ServiceError } from '../http/service-error.ts';
import fp from 'fastify-plugin';

/** Fastify's own request errors, reworded to say what to fix. */
const fastifyErrors: Record<string, ServiceError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: new ServiceError(400, 'The request body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: new ServiceError(400, 'The request body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new ServiceError(400, 'Send the request body as JSON, with content-type: application/json'),
};

/**
 * Every error leaves in the one error shape (assumption `error-shape`): `[{"Error": "..."}]`.
 * Unexpected errors become a 500 that says nothing about their cause: no stack, no headers,
 * no key ever reaches the answer.
 */
export const errorReplies = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const answer = asServiceError(error);
      if (answer.statusCode >= 500) request.log.error({ err: error }, 'unexpected error in the sandbox');
      return reply.code(answer.statusCode).headers(answer.headers).send(errorBody(answer.message));
    });

    app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody(`No route ${request.method} ${pathOf(request.url)}`)));
  },
  { name: 'error-replies' },
);

function asServiceError(error: FastifyError): ServiceError {
  if (error instanceof ServiceError) return error;
  const known = error.code ? fastifyErrors[error.code] : undefined;
  if (known) return known;
  // Other request errors Fastify raises (body too large, bad content length) carry their own 4xx.
  if (error.code?.startsWith('FST_') && error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ServiceError(error.statusCode, error.message);
  }
  return new ServiceError(500, 'The sandbox failed unexpectedly while handling this request');
}
