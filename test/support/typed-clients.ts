import type { PagerlyClient } from '../../shared/client.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import type { ApiSettings } from '../../shared/settings.ts';
import type { FetchTransportOptions } from '../../shared/transports/fetch-transport.ts';

/** The options both transports take. */
export type ClientSettings = ApiSettings & Omit<FetchTransportOptions, 'proxyEnv'>;

/**
 * The typed client on each transport it ships with: got (the Node client of the checkout) and
 * fetch (the client package's default). Transport tests run once per entry, so both keep the
 * same rules. The fetch one is told no proxy is set, whatever the machine running the tests has.
 */
export const typedClients: readonly (readonly [string, (settings: ClientSettings) => PagerlyClient])[] = [
  ['got', (settings) => createNodeClient(settings)],
  ['fetch', (settings) => createFetchClient({ ...settings, proxyEnv: {} })],
];
