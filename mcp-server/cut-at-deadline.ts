import type { ClientSummaries } from '../shared/client.ts';
import { type EndpointKey, endpoints } from '../shared/catalog/endpoints.ts';
import { isPagerlyError, TimeoutError } from '../shared/errors.ts';
import { mayHaveAppliedAdvice } from '../shared/http/failure.ts';

const STOPPED = 'This MCP server was stopped (its shutdown deadline passed) before the service answered.';

const isEndpoint = (key: string | undefined): key is EndpointKey => key !== undefined && Object.hasOwn(endpoints, key);

/**
 * A call cut at the shutdown deadline, as the model is told it: a write that had been sent
 * "may have been done", in the very words a create met by a time-out gets (failure.ts), so
 * the model checks before calling again; anything else was not done and may simply be asked
 * again (of another instance, or once this one is back).
 */
export function cutAtDeadline(error: unknown, summaries: ClientSummaries): unknown {
  if (!isPagerlyError(error)) return error;
  const endpoint = error.endpoint;
  if (error.mayHaveApplied && isEndpoint(endpoint)) {
    const advice = mayHaveAppliedAdvice(endpoint, summaries[endpoint] ?? endpoints[endpoint].summary);
    return new TimeoutError(`${STOPPED} ${advice}`, { endpoint, mayHaveApplied: true });
  }
  return new TimeoutError(`${STOPPED} Nothing was changed: call the tool again.`, isEndpoint(endpoint) ? { endpoint } : {});
}
