// `npm run n8n:e2e`: the built n8n package on the real n8n engine (installed into the cache
// on first use), against the sandbox, through n8n's own REST API and CLI. One line per case
// with its time; exit 1 on any failure.
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { nodeOperations } from '../runtime/operations.ts';
import { n8nHookEndpoints } from '../hook-endpoints.ts';
import { n8nNodeName } from '../operation-names.ts';
import { buildN8nApp } from '../build-n8n-app.ts';
import { cacheDir, ensureEngine, N8N_VERSION } from '../engine/cache.ts';
import { CREDENTIAL, ROTATIONS_BASE_URL_FIELD, BASE_URL_FIELD, TEAM_OPTIONS_METHOD, ACTION_NODE } from '../names.ts';
import { connection } from '../../shared/operations/connection.ts';
import { REDIRECT_STATUSES } from '../../shared/http/redirect.ts';
import { freePort, N8nInstance } from './n8n-process.ts';
import { N8nRest } from './rest.ts';
import { startRedirectServers, leaks } from './redirect-servers.ts';
import { actionsWorkflow, everyOperationPerCredential, nodeName, nodeType, triggerWorkflow, type CredentialRef } from './workflows.ts';
import { join } from 'node:path';

const HOUR = 3_600_000;
const started = performance.now();
const results: { name: string; ok: boolean; seconds: number; detail: string }[] = [];

async function check(name: string, work: () => Promise<string>): Promise<boolean> {
  const begin = performance.now();
  let ok = true;
  let detail: string;
  try {
    detail = await work();
  } catch (error) {
    ok = false;
    detail = (error as Error).message;
  }
  const seconds = (performance.now() - begin) / 1000;
  results.push({ name, ok, seconds, detail });
  const [first, ...more] = detail.split('\n');
  console.log(`${ok ? '✔' : '✘'} ${name.padEnd(48)} ${first}  ${seconds.toFixed(1)} s${more.length ? `\n${more.join('\n')}` : ''}`);
  return ok;
}

function expect(condition: boolean, problem: string): void {
  if (!condition) throw new Error(problem);
}

async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

console.log(`n8n ${N8N_VERSION} end to end, cache ${cacheDir()}`);
const engineOk = await check(`install n8n ${N8N_VERSION} into the cache`, async () => {
  const steps = ensureEngine();
  return steps.map((s) => `${s.what}: ${s.reused ? 'cached' : `${s.seconds.toFixed(0)} s`}`).join('; ');
});
if (!engineOk) process.exit(1);

const built = await buildN8nApp();
const sandbox = await createSandbox({ clock: { mode: 'fixed' }, delivery: { timeoutMs: 5_000, retryDelaysMs: [200, 1_000] } });
const sandboxUrl = await sandbox.listen();
const hostile = await startRedirectServers(sandboxUrl);
const elsewhereHost = new URL(hostile.elsewhere).host;
const n8n = new N8nInstance(await freePort(), join(built.folder, 'dist'));
const rest = new N8nRest(n8n.url);
const apiKey = demoKeys.acmeAdmin;
const credentialData = (key: string, base = sandboxUrl) => ({ [connection.apiKeyField.key]: key, [BASE_URL_FIELD]: base, [ROTATIONS_BASE_URL_FIELD]: '' });
const saveCredential = (name: string, base: string) =>
  rest.request<CredentialRef>('POST', '/credentials', { name, type: CREDENTIAL.name, data: credentialData(apiKey, base) });
const teamOptions = (saved: CredentialRef) => {
  const teamField = nodeOperations.flatMap((op) => op.inputFields.map((field) => ({ op, field }))).find(({ field }) => field.dynamic === 'team')!;
  return rest.request<{ name: string; value: string }[]>('POST', '/dynamic-node-parameters/options', {
    nodeTypeAndVersion: { name: nodeType(ACTION_NODE.name), version: 1 },
    methodName: TEAM_OPTIONS_METHOD,
    path: `parameters.${teamField.field.key}`,
    currentNodeParameters: { operation: n8nNodeName(teamField.op).operation },
    credentials: { [CREDENTIAL.name]: { id: saved.id, name: saved.name } },
  });
};
/** The failure a promise ends in, or an error saying it succeeded. */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value).slice(0, 200)}`);
    },
    (error: unknown) => error as Error,
  );
/** Nothing reached the other origin: the key went nowhere but the configured base. */
const nothingElsewhere = () =>
  expect(
    hostile.captured.length === 0,
    `${hostile.captured.length} requests reached ${elsewhereHost} (${leaks(hostile.captured, apiKey).length} with the key)`,
  );
let credential: CredentialRef | undefined;
let teams: string[] = [];

try {
  if (
    !(await check('n8n start, package loaded as custom extension', async () => {
      await n8n.start();
      await rest.setUpOwner();
      const types = await rest.file<{ name: string }[]>('/types/nodes.json');
      const ours = types.filter((t) => t.name.startsWith('CUSTOM.')).map((t) => t.name);
      expect(ours.includes(nodeType(ACTION_NODE.name)), `the Pagerly node is not among n8n's node types (custom ones: ${ours.join(', ') || 'none'})`);
      return `${n8n.url}, nodes ${ours.join(', ')}`;
    }))
  )
    throw new Error('n8n did not start');

  await check('credential test passes with a valid key', async () => {
    const saved = await rest.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (sandbox)',
      type: CREDENTIAL.name,
      data: credentialData(apiKey),
    });
    credential = { id: saved.id, name: saved.name };
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { ...credential, type: CREDENTIAL.name, data: credentialData(apiKey) },
    });
    expect(result.status === 'OK', `n8n says ${result.status}: ${result.message}`);
    return `${result.status}: ${result.message}`;
  });

  await check('credential test fails on a bad key', async () => {
    const badKey = 'sbx_bad_key_e2e_0000000000000000';
    const saved = await rest.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (bad key)',
      type: CREDENTIAL.name,
      data: credentialData(badKey),
    });
    const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
      credentials: { id: saved.id, name: saved.name, type: CREDENTIAL.name, data: credentialData(badKey) },
    });
    expect(result.status === 'Error', `expected Error, n8n says ${result.status}: ${result.message}`);
    expect(!JSON.stringify(result).includes(badKey), 'the answer repeats the key');
    return `${result.status}: ${result.message}`;
  });

  await check('team dropdown (loadOptions) lists the teams', async () => {
    expect(credential !== undefined, 'no saved credential');
    const options = await teamOptions(credential!);
    const expected = (await createNodeClient({ apiKey, baseUrl: sandboxUrl }).listTeams()).map((team) => team.name);
    teams = options.map((option) => option.value);
    expect(JSON.stringify(options.map((o) => o.name)) === JSON.stringify(expected), `dropdown ${JSON.stringify(options)} ≠ teams ${JSON.stringify(expected)}`);
    return options.map((o) => o.name).join(', ');
  });

  const redirecting = await Promise.all(
    [...REDIRECT_STATUSES].map(async (status) => ({
      label: String(status),
      credential: await saveCredential(`Pagerly (${status} elsewhere)`, hostile.crossOrigin(status)),
    })),
  );

  await check(`credential test refuses a redirect elsewhere (${[...REDIRECT_STATUSES].join(', ')})`, async () => {
    const said: string[] = [];
    for (const { label, credential: saved } of redirecting) {
      const status = Number(label);
      const data = credentialData(apiKey, hostile.crossOrigin(status));
      const result = await rest.request<{ status: string; message: string }>('POST', '/credentials/test', {
        credentials: { ...saved, type: CREDENTIAL.name, data },
      });
      expect(result.status === 'Error', `${status}: n8n says ${result.status}: ${result.message}`);
      expect(result.message.includes(`HTTP ${status}`) && /redirect/.test(result.message), `${status}: ${result.message}`);
      said.push(`${status} ${result.status}`);
    }
    nothingElsewhere();
    return `${said.join(', ')}; nothing reached ${elsewhereHost}`;
  });

  await check('team dropdown refuses a 307 elsewhere, naming its host', async () => {
    const error = await failureOf(teamOptions(redirecting.find((r) => r.label === '307')!.credential));
    expect(error.message.includes(elsewhereHost), `the error does not name ${elsewhereHost}: ${error.message.slice(0, 300)}`);
    expect(!error.message.includes(apiKey), 'the error repeats the key');
    nothingElsewhere();
    return `refused, names ${elsewhereHost}`;
  });

  await check('team dropdown follows a redirect to the same origin', async () => {
    const options = await teamOptions(await saveCredential('Pagerly (moved)', hostile.sameOrigin));
    expect(options.length > 0 && JSON.stringify(options.map((o) => o.value)) === JSON.stringify(teams), `dropdown ${JSON.stringify(options)}`);
    return options.map((o) => o.name).join(', ');
  });

  await check('activating the trigger on a base that redirects elsewhere fails', async () => {
    const workflow = await rest.request<{ id: string; versionId: string }>('POST', '/workflows', triggerWorkflow(redirecting[0]!.credential, ''));
    const error = await failureOf(rest.request('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId }));
    expect(error.message.includes(elsewhereHost), `the error does not name ${elsewhereHost}: ${error.message.slice(0, 300)}`);
    nothingElsewhere();
    return `refused, names ${elsewhereHost}`;
  });

  const n8nSubscriptions = () => [...sandbox.world.subscriptions.values()].filter((s) => s.platform === 'n8n');
  let triggerId = '';
  let versionId = '';

  await check('activating the trigger subscribes its webhook', async () => {
    expect(credential !== undefined, 'no saved credential');
    const workflow = await rest.request<{ id: string; versionId: string }>('POST', '/workflows', triggerWorkflow(credential!, ''));
    triggerId = workflow.id;
    versionId = workflow.versionId;
    await rest.request('POST', `/workflows/${triggerId}/activate`, { versionId });
    const subscriptions = n8nSubscriptions();
    expect(subscriptions.length === 1, `${subscriptions.length} n8n subscriptions in the sandbox`);
    expect(subscriptions[0]!.url.startsWith(`${n8n.url}/webhook/`), `subscribed ${subscriptions[0]!.url}`);
    return `${endpointOf(n8nHookEndpoints.subscribe)} → ${subscriptions[0]!.id} for ${subscriptions[0]!.url}`;
  });

  await check('an on-call change starts an execution with the event', async () => {
    expect(triggerId !== '', 'no active trigger workflow');
    await sandbox.clock.advance(HOUR);
    await sandbox.deliveries.idle();
    const delivered = sandbox.deliveries.log.filter((attempt) => attempt.outcome === 'delivered' && attempt.url.startsWith(n8n.url));
    expect(delivered.length > 0, `no delivery reached n8n (${JSON.stringify(sandbox.deliveries.log.slice(0, 3))})`);
    const eventIds = [...new Set(delivered.map((d) => d.eventId))];
    const executions = await poll("the trigger's executions", async () => {
      const list = await rest.request<{ results: { id: string; status: string }[] }>(
        'GET',
        `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: triggerId }))}`,
      );
      const done = list.results.filter((e) => e.status === 'success');
      return done.length >= eventIds.length ? done : undefined;
    });
    const bodies = await Promise.all(executions.map((e) => rest.request<unknown>('GET', `/executions/${e.id}`).then((x) => JSON.stringify(x))));
    for (const id of eventIds)
      expect(
        bodies.some((body) => body.includes(id)),
        `no execution carries ${id}`,
      );
    return `${delivered.length} deliveries (${eventIds.join(', ')}) → ${executions.length} executions carrying them`;
  });

  await check('deactivating unsubscribes: no subscription left', async () => {
    expect(triggerId !== '', 'no trigger workflow');
    await rest.request('POST', `/workflows/${triggerId}/deactivate`, {});
    const left = n8nSubscriptions();
    expect(left.length === 0, `${left.length} n8n subscriptions left: ${left.map((s) => s.id).join(', ')}`);
    return `${endpointOf(n8nHookEndpoints.unsubscribe)}; ${sandbox.world.subscriptions.size} subscriptions in the sandbox`;
  });

  let actionsId = '';
  if (credential) actionsId = (await rest.request<{ id: string }>('POST', '/workflows', actionsWorkflow(credential, teams[0] ?? ''))).id;
  const redirectsId = (await rest.request<{ id: string }>('POST', '/workflows', everyOperationPerCredential(redirecting))).id;
  await check('n8n stops (the CLI runs next on its database)', async () => {
    await n8n.stop();
    return 'stopped';
  });

  await check(`every operation: n8n execute --id (${nodeOperations.length} nodes)`, async () => {
    expect(actionsId !== '', 'no workflow was saved');
    const data = await n8n.execute(actionsId);
    const lines: string[] = [];
    for (const operation of nodeOperations) {
      const runs = data[nodeName(operation)];
      expect(runs !== undefined, `${n8nNodeName(operation).operation}: the node did not run`);
      const error = runs![0]!.error;
      expect(!error, `${n8nNodeName(operation).operation}: ${error?.message}`);
      const items = (runs![0]!.data?.main?.[0] ?? []).map((item) => item.json).filter((json) => Object.keys(json).length > 0);
      const missing = operation.kind === 'action' ? operation.outputFields.map((f) => f.key).filter((key) => !(key in (items[0] ?? {}))) : [];
      expect(operation.kind === 'search' || items.length === 1, `${n8nNodeName(operation).operation}: ${items.length} items`);
      expect(missing.length === 0, `${n8nNodeName(operation).operation}: output lacks ${missing.join(', ')}`);
      lines.push(`${n8nNodeName(operation).operation} → ${items.length} item(s)${items[0]?.id ? ` (${items[0].id})` : ''}`);
    }
    return `${lines.length} operations ran\n${lines.map((l) => `    ${l}`).join('\n')}`;
  });

  await check(`every operation on bases redirecting elsewhere (${redirecting.length} statuses)`, async () => {
    const data = await n8n.execute(redirectsId);
    let refused = 0;
    for (const { label } of redirecting)
      for (const operation of nodeOperations) {
        const name = `${label}: ${nodeName(operation)}`;
        const json = data[name]?.[0]?.data?.main?.[0]?.[0]?.json;
        const error = typeof json?.error === 'string' ? json.error : data[name]?.[0]?.error?.message;
        expect(typeof error === 'string' && error.includes(elsewhereHost), `${name}: ${error ?? 'no error'}`);
        expect(!error!.includes(apiKey), `${name}: the error repeats the key`);
        refused++;
      }
    nothingElsewhere();
    return `${refused} items failed naming ${elsewhereHost}; nothing reached it`;
  });
} finally {
  await n8n.stop();
  await sandbox.close();
  await hostile.close();
  if (results.some((r) => !r.ok)) console.log(`\nn8n's log (last lines):\n${n8n.serverLog().split('\n').slice(-30).join('\n')}`);
  n8n.remove();
}

function endpointOf(key: EndpointKey): string {
  return `${endpoints[key].method} ${endpoints[key].path}`;
}

const failed = results.filter((r) => !r.ok);
console.log(
  `${failed.length ? `${failed.length} of ${results.length} cases failed` : `All ${results.length} cases passed`} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
process.exitCode = failed.length ? 1 : 0;
