import type { EndpointKey } from '../catalog/endpoints.ts';
import type { HttpMethod } from '../catalog/endpoint.ts';

/** A request ready for any transport: got, Zapier's z.request, or Make's runner. */
export interface HttpRequest {
  readonly endpoint: EndpointKey;
  readonly method: HttpMethod;
  /** Full URL without the query string. */
  readonly url: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body as sent, for POST. */
  readonly body: string | undefined;
  /** Safe to send again after a network error or 5xx. */
  readonly idempotent: boolean;
  /**
   * What the call does, as its errors say it, when that is less than all the endpoint does (one
   * endpoint creates and updates incidents: a create's errors name only the create).
   */
  readonly summary?: string | undefined;
}

/**
 * A request to another service than Pagerly, sent by the same transport rules (the directory
 * import reading a vendor's people): named by what it reads (`opsgenie: list users`) rather
 * than by a catalog endpoint. Only idempotent reads are sent this way. Its `url` may carry the
 * query as that service wrote it (a `next` link), `query` being then empty.
 */
export type OutgoingRequest = Omit<HttpRequest, 'endpoint'> & { readonly endpoint: string };

export interface HttpResponse {
  readonly status: number;
  /** The URL that gave this answer (after any same-origin redirect); resolves a relative `Location`. */
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text: interpretation (JSON or not) is the API module's job, not the transport's. */
  readonly body: string;
}

/**
 * The one thing a consumer plugs in. Throws the error of `noAnswerError` (failure.ts) when no
 * answer came. Follows a redirect only to the origin that answered (redirect.ts); any other
 * 3xx is returned as it came, for the API module to turn into a `RedirectError`.
 */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
}

export const API_KEY_HEADER = 'X-APIKEY';
