import type { Trace } from '../shared/http/trace.ts';
import type { Transport } from '../shared/http/types.ts';
import { fetchTransport } from '../shared/transports/fetch-transport.ts';
import type { FetchTransportOptions } from '../shared/transports/fetch-transport.ts';

/**
 * The typed client's transport (fetch, which honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY from
 * the server's environment), with two changes for a tool call:
 * - `signal`: the call's own; a client that cancels the call (MCP's notifications/cancelled)
 *   aborts the HTTP request in flight instead of leaving it to finish unseen.
 * - Only a request the catalog marks idempotent is retried. A model that reads a failure may
 *   call the tool again itself; a create retried underneath it (after a 429 or a refused
 *   connection, which the typed client may retry) would be a second request it never saw.
 */
export function toolCallTransport(
  options: FetchTransportOptions & { readonly signal?: AbortSignal | undefined; readonly trace?: Trace | undefined },
): Transport {
  const retrying = fetchTransport(options);
  const once = fetchTransport({ ...options, retries: 0 });
  return { send: (request) => (request.idempotent ? retrying : once).send(request) };
}
