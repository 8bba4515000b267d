import { createClient, type PagerlyClient } from './client.ts';
import type { ApiSettings } from './settings.ts';
import { gotTransport, type GotTransportOptions } from './transports/got-transport.ts';

/** The typed client for Node scripts: the API module on got. */
export function createNodeClient(settings: ApiSettings & GotTransportOptions): PagerlyClient {
  return createClient({ ...settings, transport: gotTransport(settings) });
}
