import { type ClientSummaries, createClient, type PagerlyClient } from './client.ts';
import type { ApiSettings } from './settings.ts';
import { fetchTransport, type FetchTransportOptions } from './transports/fetch-transport.ts';

/** The typed client on the platform's fetch (Node 22+, Bun, Deno), with the same rules as on got. */
export function createFetchClient(settings: ApiSettings & FetchTransportOptions & { summaries?: ClientSummaries | undefined }): PagerlyClient {
  return createClient({ ...settings, transport: fetchTransport(settings) });
}
