import { join } from 'node:path';
import { buildN8nApp } from '../../n8n-app/build-n8n-app.ts';
import { DEFAULT_LINE, engineReady, N8N_VERSION } from '../../n8n-app/engine/cache.ts';
import { freePort, N8nInstance } from '../../n8n-app/e2e/n8n-process.ts';
import { N8nRest } from '../../n8n-app/e2e/rest.ts';
import { actionsWorkflow, nodeName } from '../../n8n-app/e2e/workflows.ts';
import { n8nNodeName } from '../../n8n-app/operation-names.ts';
import { nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { BASE_URL_FIELD, CREDENTIAL, ROTATIONS_BASE_URL_FIELD } from '../../n8n-app/names.ts';
import { demoKeys } from '../../sandbox/index.ts';
import { connection } from '../../shared/operations/connection.ts';
import { call, type Step } from './step.ts';

/** Said instead of the n8n steps when the engine is not in the cache: how to get it, what it costs. */
export const N8N_NOT_CACHED = `n8n: not run here, the n8n engine is not cached. \`npm run n8n:install -- --line ${DEFAULT_LINE.id}\` installs n8n ${N8N_VERSION} into .cache/n8n once (about 3 GB, 4 to 5 minutes), and npm start runs the n8n node from then on.`;

/**
 * Every action and search of the built n8n package, on the real n8n engine from the cache: n8n
 * starts with the package as a custom extension, a credential and a workflow with every
 * operation are saved through its REST API, and n8n's CLI runs the workflow. One step a
 * start-up, then one step per operation, read from that run.
 */
export function n8nSteps(sandboxUrl: string): Step[] | undefined {
  if (!engineReady()) return undefined;
  let run: Promise<Record<string, { error?: { message?: string }; data?: { main?: { json: Record<string, unknown> }[][] } }[]>> | undefined;
  const runAll = async () => {
    const built = await buildN8nApp();
    const n8n = new N8nInstance(await freePort(), join(built.folder, 'dist'));
    try {
      await n8n.start();
      const rest = new N8nRest(n8n.url);
      await rest.setUpOwner();
      const data = { [connection.apiKeyField.key]: demoKeys.acmeAdmin, [BASE_URL_FIELD]: sandboxUrl, [ROTATIONS_BASE_URL_FIELD]: '' };
      const credential = await rest.request<{ id: string; name: string }>('POST', '/credentials', { name: 'Pagerly (sandbox)', type: CREDENTIAL.name, data });
      const workflow = await rest.request<{ id: string }>('POST', '/workflows', actionsWorkflow(credential, 'Platform'));
      await n8n.stop();
      return await n8n.execute(workflow.id);
    } finally {
      await n8n.stop();
      n8n.remove();
    }
  };
  return [
    {
      platform: 'n8n',
      operation: 'start',
      calls: `n8n ${N8N_VERSION} + dist/n8n, n8n execute`,
      run: async () => {
        run = runAll();
        const data = await run;
        return `${Object.keys(data).length} nodes ran`;
      },
    },
    ...nodeOperations.map(
      (operation): Step => ({
        platform: 'n8n',
        // Operation values repeat across resources (create, update): the pair names one.
        operation: `${n8nNodeName(operation).resource}:${n8nNodeName(operation).operation}`,
        calls: call(operation.endpoint),
        run: async () => {
          if (!run) throw new Error('skipped: n8n did not start');
          const node = (await run)[nodeName(operation)]?.[0];
          if (!node) throw new Error('the node did not run');
          if (node.error) throw new Error(node.error.message ?? 'failed');
          const items = (node.data?.main?.[0] ?? []).map((item) => item.json).filter((json) => Object.keys(json).length > 0);
          const first = items[0];
          return `${items.length} item${items.length === 1 ? '' : 's'}${first?.id ? ` (${String(first.id)})` : ''}`;
        },
      }),
    ),
  ];
}
