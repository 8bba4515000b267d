// The entry of the client package (@pagerly/client): the shared API module on the platform's
// fetch, with its errors and types. Nothing here may need Node: the package runs on Node 22
// and 24, Bun and Deno.
import { createClient as clientOn, type PagerlyClient } from '../shared/client.ts';
import { envTrace } from '../shared/http/trace.ts';
import type { Transport } from '../shared/http/types.ts';
import type { ApiSettings } from '../shared/settings.ts';
import { fetchTransport, type FetchTransportOptions } from '../shared/transports/fetch-transport.ts';

export type { EndpointKey, Endpoints } from '../shared/catalog/endpoints.ts';
export type { InputOf, OutputOf } from '../shared/catalog/endpoint.ts';
export type { PagerlyClient } from '../shared/client.ts';
export * from '../shared/errors.ts';
export type { Trace } from '../shared/http/trace.ts';
export type { HttpRequest, HttpResponse, Transport } from '../shared/http/types.ts';
export type { ApiSettings } from '../shared/settings.ts';
export { fetchTransport, type FetchTransportOptions, type ProxyEnv, type RetryNotice } from '../shared/transports/fetch-transport.ts';

/** The client's settings: the key and bases, the transport's limits, or a transport of your own. */
export type ClientSettings = ApiSettings & FetchTransportOptions & { transport?: Transport | undefined };

/**
 * A typed client with one method per endpoint. It sends through `fetch` unless given a
 * `transport`; a base URL that is not http(s), or has a query, fragment or credentials, throws here.
 * Without a `trace`, PAGERLY_DEBUG=1 in the environment traces each request to stderr.
 */
export function createClient(settings: ClientSettings): PagerlyClient {
  return clientOn({
    userAgent: 'pagerly-client',
    ...settings,
    transport: settings.transport ?? fetchTransport({ ...settings, trace: settings.trace ?? envTrace(undefined) }),
  });
}
