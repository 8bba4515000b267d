import { type ClientSummaries, createClient, type PagerlyClient } from './client.ts';
import { envTrace, type Trace } from './http/trace.ts';
import type { ApiSettings } from './settings.ts';
import { fetchTransport, type FetchTransportOptions } from './transports/fetch-transport.ts';

/** The fetch client's settings: `trace` false traces nothing, whatever PAGERLY_DEBUG says (the CLI decides for itself). */
export type FetchClientSettings = ApiSettings &
  Omit<FetchTransportOptions, 'trace'> & { summaries?: ClientSummaries | undefined; trace?: Trace | false | undefined };

/**
 * The typed client on the platform's fetch (Node 22+, Bun, Deno), with the same rules as on got.
 * Without a `trace`, PAGERLY_DEBUG=1 in the environment traces each request to stderr.
 */
export function createFetchClient(settings: FetchClientSettings): PagerlyClient {
  const trace = settings.trace === false ? undefined : (settings.trace ?? envTrace(undefined));
  return createClient({ ...settings, transport: fetchTransport({ ...settings, trace }) });
}
