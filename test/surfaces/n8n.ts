import { parametersFor } from '../../n8n-app/e2e/workflows.ts';
import { executePagerly, loadTeams } from '../../n8n-app/runtime/index.ts';
import { nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { classes, credentialFor, executeContext, NodeApiError, NodeOperationError } from '../n8n/support.ts';
import { settle, type SurfaceDriver, type Target } from './driver.ts';

const createIncident = nodeOperations.find(
  (operation) => operation.kind === 'action' && operation.endpoint === 'createOrUpdateIncident' && !operation.keepsOmitted,
);
if (!createIncident) throw new Error('the n8n node has no create-incident operation for the battery');

/** n8n's errors as the user sees them: the message and the description under it. */
function n8nError(error: unknown): { message: string; kind: string; own: boolean } {
  const { name, message, description } = (error ?? {}) as { name?: string; message?: string; description?: string };
  return {
    kind: String(name),
    message: [message, description].filter(Boolean).join(' '),
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

export const n8nDriver: SurfaceDriver = {
  name: 'n8n',
  surface: 'n8n',
  read: (target) => settle(() => loadTeams(context(target, {}), classes), n8nError),
  write: (target) => settle(() => executePagerly(context(target, parametersFor(createIncident, 'Platform')), classes), n8nError),
  checkKey: {
    gap: "the credential test is declarative (the generated credential's `test` block): n8n's engine sends it and reads the status, with no code of the node in between; `npm run n8n:e2e` runs the redirect cases on it in the real engine",
  },
  redirect: { kind: 'NodeOperationError', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  // n8n's helper honours the `timeout` the runtime passes (25 s); the stand-in cuts it to the
  // battery's, so what is proven is the runtime's reading of n8n's time-out error.
  hang: 'knob',
};
