import type { Bundle, ZObject } from 'zapier-platform-core';
import { type ClientSummaries, createClient, type PagerlyClient } from '../shared/client.ts';
import type { EndpointKey, Endpoints } from '../shared/catalog/endpoints.ts';
import type { InputOf, OutputOf } from '../shared/catalog/endpoint.ts';
import { zRequestTransport } from './z-request-transport.ts';
import { toZapierError } from './zapier-errors.ts';

/**
 * The typed client with the connection's key, on z.request. The bases default to the
 * service's public ones; the environment can point them elsewhere (the sandbox in tests and demos).
 */
export function clientForBundle(z: ZObject, bundle: Pick<Bundle, 'authData'>, summaries?: ClientSummaries): PagerlyClient {
  return createClient({
    apiKey: bundle.authData.apiKey ?? '',
    baseUrl: process.env.PAGERLY_BASE_URL,
    rotationsBaseUrl: process.env.PAGERLY_ROTATIONS_BASE_URL,
    userAgent: 'pagerly-zapier',
    transport: zRequestTransport(z),
    summaries,
  });
}

/** Runs an operation's work and turns any shared error into Zapier's, once, at the edge. */
export async function withZapierErrors<T>(z: ZObject, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toZapierError(z, error);
  }
}

export function callPagerly<K extends EndpointKey>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  key: K,
  input: InputOf<Endpoints[K]>,
): Promise<OutputOf<Endpoints[K]>> {
  return withZapierErrors(z, () => clientForBundle(z, bundle).call(key, input));
}
