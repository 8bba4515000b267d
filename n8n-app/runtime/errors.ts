import { isPagerlyError } from '../../shared/errors.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import type { INode } from 'n8n-workflow';
import type { N8nErrorClasses } from './n8n-api.ts';

/** Codes of the shared error model that come from the service's answer (or its absence). */
const FROM_THE_SERVICE = new Set(['authentication', 'permission', 'not_found', 'rate_limited', 'server', 'network', 'timeout', 'invalid_response']);

/**
 * The shared error model in n8n's terms, once, at the edge: what the service answered (or
 * failed to) is a `NodeApiError` with the HTTP status; bad input and settings are a
 * `NodeOperationError`. Only the shared error's message goes in, which never holds the key,
 * and no request or response object, whose headers would; the service's reason in it is shown
 * on n8n's page with its invisible controls as escapes, never applied (shared/visible-controls.ts).
 */
export function toN8nError(error: unknown, node: INode, classes: N8nErrorClasses, itemIndex?: number): Error {
  const index = itemIndex === undefined ? {} : { itemIndex };
  if (!isPagerlyError(error)) {
    // Already n8n's (a missing credential, say): it says what to fix and holds no key.
    if (error instanceof Error && /^Node(Api|Operation)Error$/.test(error.name)) return error;
    return new classes.NodeOperationError(node, error instanceof Error ? error.message : String(error), index);
  }
  const advice = error.retryable ? 'This is usually temporary: run it again, or turn on the node\'s "Retry On Fail" setting.' : undefined;
  const message = showInvisibleControls(error.message);
  if (FROM_THE_SERVICE.has(error.code)) {
    // n8n replaces a message that holds a network code (ECONNREFUSED, ...) with its own generic
    // sentence; the description keeps ours, which names the host and what to check.
    return new classes.NodeApiError(
      node,
      { message, code: error.code },
      {
        message,
        description: advice ? `${message} ${advice}` : message,
        ...(error.status === undefined ? {} : { httpCode: String(error.status) }),
        ...index,
      },
    );
  }
  const description = advice;
  return new classes.NodeOperationError(node, message, { ...(description ? { description } : {}), ...index });
}
