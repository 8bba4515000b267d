import { parametersFor } from '../../n8n-app/e2e/workflows.ts';
import { executePagerly, searchTeams } from '../../n8n-app/runtime/index.ts';
import { nodeOperations, type NodeOperation } from '../../n8n-app/runtime/operations.ts';
import type { PagerlyErrorCode } from '../../shared/errors.ts';
import { classes, credentialFor, executeContext, NodeApiError, NodeOperationError } from '../n8n/support.ts';
import { codeOfSharedMessage, INPUT, settle, type ErrorKind, type SurfaceDriver, type Target } from './driver.ts';

function operation(id: string, pick: (operation: NodeOperation) => boolean): NodeOperation {
  const found = nodeOperations.find(pick);
  if (!found) throw new Error(`the n8n node has no ${id} operation for the drivers`);
  return found;
}
const createIncident = operation('create-incident', (op) => op.kind === 'action' && op.endpoint === 'createOrUpdateIncident' && !op.keepsOmitted);
const onCallSearch = operation('on-call search', (op) => op.kind === 'search' && op.id === 'getOnCallUsers');
const directorySearch = operation('directory search', (op) => op.kind === 'search' && op.id === 'getDirectoryEntry');
const phoneUpdate = operation('phone update', (op) => op.kind === 'action' && op.id === 'updateDirectoryPhone');

/**
 * n8n's errors in the shared model's codes (the inverse of n8n-app/runtime/errors.ts): a
 * NodeApiError carries the shared code it was made from; a NodeOperationError (input, settings,
 * redirects, a create without an id) says it in the shared wording.
 */
function n8nError(error: unknown): { message: string; kind: ErrorKind; native: string; own: boolean } {
  const { name, message, description, cause } = (error ?? {}) as { name?: string; message?: string; description?: string; cause?: { code?: unknown } };
  const text = [message, description].filter(Boolean).join(' ');
  const code = error instanceof NodeApiError && typeof cause?.code === 'string' ? (cause.code as PagerlyErrorCode) : undefined;
  return {
    kind: code ?? codeOfSharedMessage(message ?? ''),
    native: String(name),
    message: text,
    own: error instanceof NodeApiError || error instanceof NodeOperationError,
  };
}

/**
 * The node's runtime (what the generated classes call) on the n8n-style context of
 * test/n8n/support.ts, whose request helper follows redirects with X-APIKEY unless told not
 * to, as n8n's does. The team dropdown is the read, the Incident › Create operation the write.
 */
function context({ baseUrl, apiKey, timeoutMs }: Target, parameters: Record<string, unknown>) {
  return executeContext(credentialFor(apiKey, baseUrl), [parameters], timeoutMs === undefined ? {} : { timeoutCapMs: timeoutMs }).context;
}

/** The items of the node's one output, as the next node reads them. */
async function items(target: Target, parameters: Record<string, unknown>): Promise<unknown[]> {
  const [output = []] = await executePagerly(context(target, parameters), classes);
  return output.map((item) => item.json);
}

export const n8nDriver: SurfaceDriver = {
  name: 'n8n',
  surface: 'n8n',
  read: (target) => settle(async () => (await searchTeams(context(target, {}), classes)).results, n8nError),
  // The node's one item is the created incident, as the next node reads it.
  write: (target) => settle(async () => (await items(target, parametersFor(createIncident, 'Platform')))[0], n8nError),
  checkKey: {
    gap: "the credential test is declarative (the generated credential's `test` block): n8n's engine sends it and reads the status, with no code of the node in between; `npm run n8n:e2e` runs the redirect cases on it in the real engine",
  },
  onCall: (target) => settle(() => items(target, parametersFor(onCallSearch, INPUT.team, { teamname: INPUT.team })), n8nError),
  everyoneOnCall: (target) => settle(() => items(target, parametersFor(onCallSearch, INPUT.team, { teamname: '' })), n8nError),
  directoryEntry: (target) => settle(() => items(target, parametersFor(directorySearch, INPUT.team, { email: target.email ?? INPUT.email })), n8nError),
  directoryWrite: (target) =>
    settle(async () => (await items(target, parametersFor(phoneUpdate, INPUT.team, { email: target.email ?? INPUT.email, phone: INPUT.phone })))[0], n8nError),
  redirect: { native: 'NodeOperationError', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  // n8n's helper honours the `timeout` the runtime passes (25 s); the stand-in cuts it to the
  // battery's, so what is proven is the runtime's reading of n8n's time-out error.
  hang: 'knob',
};
