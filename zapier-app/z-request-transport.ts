import type { ZObject } from 'zapier-platform-core';
import type { HttpRequest, HttpResponse, Transport } from '../shared/http/types.ts';

/**
 * The shared API module's transport on `z.request`, so Zapier's request log, middleware and
 * secret scrubbing stay in play. The module interprets every status itself: core must not
 * throw first (`skipThrowForStatus`), nor turn a 429 into its generic ThrottledError before
 * the service's Retry-After and text are read (`throwForThrottlingEarly: false`).
 */
export function zRequestTransport(z: ZObject): Transport {
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      const response = await z.request({
        url: request.url,
        method: request.method,
        params: request.query,
        headers: request.headers,
        body: request.body,
        skipThrowForStatus: true,
        throwForThrottlingEarly: false,
      } as Parameters<ZObject['request']>[0]);
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: response.content,
      };
    },
  };
}
