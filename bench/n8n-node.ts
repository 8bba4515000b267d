// Part 6: 1,000 items through the Pagerly node's create-incident on the real n8n engine, next
// to n8n's own HTTP Request node sending the same POST with the same credential, against the
// sandbox. Both run in one n8n (the engine line on the project's Node, from the cache), each
// workflow in turn, several rounds; the time is the node's own, as n8n records it in the run
// data (`executionTime`), so the item generator and the start of the run are left out.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { connection } from '../shared/operations/connection.ts';
import { buildN8nApp } from '../n8n-app/build-n8n-app.ts';
import { DEFAULT_LINE, engineReady, lineDir } from '../n8n-app/engine/cache.ts';
import { freePort, N8nInstance } from '../n8n-app/e2e/n8n-process.ts';
import { N8nRest } from '../n8n-app/e2e/rest.ts';
import { createIncidentOperation, nodeName, nodeType, parametersFor, type CredentialRef } from '../n8n-app/e2e/workflows.ts';
import { ACTION_NODE, BASE_URL_FIELD, CREDENTIAL, ROTATIONS_BASE_URL_FIELD } from '../n8n-app/names.ts';
import { median, round } from './stats.ts';

/** The aim for the Pagerly node's time over the HTTP Request node's, for the same items. */
export const N8N_NODE_OVER_HTTP_AIM = 1.1;

export interface N8nNodeSettings {
  items: number;
  rounds: number;
  warmupRounds: number;
  /** The whole part, n8n's start included; past it the part fails instead of hanging. */
  timeoutMs: number;
}
export const n8nNodeSettings: N8nNodeSettings = { items: 1_000, rounds: 5, warmupRounds: 1, timeoutMs: 900_000 };

interface Way {
  /** The node's own time per round (n8n's `executionTime`), ms. */
  runsMs: number[];
  medianMs: number;
  /** The whole execution per round, start to stop as n8n records it, ms. */
  executionMedianMs: number;
}

export interface N8nNodeFigures {
  settings: N8nNodeSettings;
  n8n: string;
  node: string;
  request: string;
  pagerly: Way;
  httpRequest: Way;
  /** The Pagerly node's median ÷ the HTTP Request node's. */
  pagerlyOverHttp: number;
  aim: number;
  /** Incidents each way opened in its last round, and whether they are alike but for id and time. */
  incidents: { pagerly: number; httpRequest: number; alike: boolean };
  problems: string[];
}

/** Whether the engine is in the cache (`npm run n8n:install` or `npm run n8n:e2e` puts it there): without it the part is skipped. */
export const n8nBenchReady = () => engineReady(DEFAULT_LINE);

const TEAM = 'Platform';
const SEVERITY = 'P3';
/** Each item's title, the same expression in both nodes. */
const TITLE = '={{ "Bench item " + $json.n }}';

/** Manual trigger → one item per number (Set + Split Out, no code runner) → the node under test. */
function benchWorkflow(name: string, items: number, node: Record<string, unknown> & { name: string }) {
  const trigger = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  const numbers = {
    id: 'numbers',
    name: 'Numbers',
    type: 'n8n-nodes-base.set',
    typeVersion: 3.4,
    position: [220, 0],
    parameters: {
      mode: 'manual',
      assignments: { assignments: [{ id: 'n', name: 'n', type: 'array', value: `={{ Array.from({ length: ${items} }, (_, n) => n) }}` }] },
      options: {},
    },
  };
  const split = {
    id: 'split',
    name: 'Items',
    type: 'n8n-nodes-base.splitOut',
    typeVersion: 1,
    position: [440, 0],
    parameters: { fieldToSplitOut: 'n', options: {} },
  };
  const chain = [trigger, numbers, split, { ...node, position: [660, 0] }];
  const connections = Object.fromEntries(
    chain.slice(0, -1).map((from, index) => [from.name, { main: [[{ node: chain[index + 1]!.name, type: 'main', index: 0 }]] }]),
  );
  return { name, nodes: chain, connections, settings: { executionOrder: 'v1' } };
}

function pagerlyNode(credential: CredentialRef) {
  const operation = createIncidentOperation();
  return {
    id: 'pagerly',
    name: nodeName(operation),
    type: nodeType(ACTION_NODE.name),
    typeVersion: 1,
    // The team is optional for this operation, so it is given here, as in the HTTP body.
    parameters: parametersFor(operation, TEAM, { title: TITLE, severity: SEVERITY, teamname: TEAM }),
    credentials: { [CREDENTIAL.name]: credential },
  };
}

/**
 * n8n's HTTP Request node as a user would set it up for the same call: the Pagerly credential
 * as a predefined credential type (n8n adds its key header the same way), the same JSON body.
 */
function httpRequestNode(credential: CredentialRef, sandboxUrl: string) {
  return {
    id: 'http',
    name: 'HTTP Request',
    type: 'n8n-nodes-base.httpRequest',
    typeVersion: 4.2,
    parameters: {
      method: 'POST',
      url: `${sandboxUrl}/o/incident`,
      authentication: 'predefinedCredentialType',
      nodeCredentialType: CREDENTIAL.name,
      sendBody: true,
      specifyBody: 'json',
      jsonBody: `={{ JSON.stringify({ title: "Bench item " + $json.n, severity: "${SEVERITY}", teamname: "${TEAM}" }) }}`,
      options: {},
    },
    credentials: { [CREDENTIAL.name]: credential },
  };
}

interface RunDataEntry {
  executionTime?: number;
  error?: { message?: string };
  data?: { main?: { json: Record<string, unknown> }[][] };
}

/** Runs a workflow manually through n8n's REST API and gives the node's run and the execution's duration. */
async function runOnce(rest: N8nRest, engine: NodeRequire, workflowId: string, node: string): Promise<{ nodeMs: number; executionMs: number; items: number }> {
  const run = await rest.request<{ executionId?: string }>('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom: { name: 'Start' } });
  if (typeof run.executionId !== 'string') throw new Error(`n8n did not start the run: ${JSON.stringify(run).slice(0, 200)}`);
  const end = Date.now() + 120_000;
  for (;;) {
    const execution = await rest.request<{ status: string; data: string; startedAt: string; stoppedAt?: string }>('GET', `/executions/${run.executionId}`);
    if (execution.status !== 'running' && execution.status !== 'new' && execution.stoppedAt) {
      const { parse } = engine('flatted') as { parse: (text: string) => unknown };
      const data = parse(execution.data) as { resultData: { runData: Record<string, RunDataEntry[]>; error?: { message?: string } } };
      const entry = data.resultData.runData[node]?.[0];
      if (execution.status !== 'success' || !entry || entry.error)
        throw new Error(
          `${node}: execution ${run.executionId} ${execution.status}: ${entry?.error?.message ?? data.resultData.error?.message ?? 'the node did not run'}`,
        );
      return {
        nodeMs: entry.executionTime ?? Number.NaN,
        executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
        items: entry.data?.main?.[0]?.length ?? 0,
      };
    }
    if (Date.now() > end) throw new Error(`${node}: execution ${run.executionId} still ${execution.status} after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function measureN8nNode(settings: N8nNodeSettings): Promise<N8nNodeFigures> {
  const engine = createRequire(join(lineDir(DEFAULT_LINE), 'node_modules', 'n8n', 'package.json'));
  const built = await buildN8nApp();
  // No rate limit: 1,000 items a round, several rounds, well past the sandbox's 600 a minute.
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
  const sandboxUrl = await sandbox.listen();
  const n8n = new N8nInstance(await freePort(), join(built.folder, 'dist'), { line: DEFAULT_LINE });
  const timer = setTimeout(() => void n8n.stop(), settings.timeoutMs);
  try {
    await n8n.start();
    const rest = new N8nRest(n8n.url);
    await rest.setUpOwner();
    const credential = await rest.request<CredentialRef>('POST', '/credentials', {
      name: 'Pagerly (sandbox)',
      type: CREDENTIAL.name,
      data: { [connection.apiKeyField.key]: demoKeys.acmeAdmin, [BASE_URL_FIELD]: sandboxUrl, [ROTATIONS_BASE_URL_FIELD]: '' },
    });
    const pagerly = pagerlyNode(credential);
    const http = httpRequestNode(credential, sandboxUrl);
    const ways = [
      {
        key: 'pagerly' as const,
        node: pagerly.name,
        id: (await rest.request<{ id: string }>('POST', '/workflows', benchWorkflow('Bench: Pagerly node', settings.items, pagerly))).id,
      },
      {
        key: 'httpRequest' as const,
        node: http.name,
        id: (await rest.request<{ id: string }>('POST', '/workflows', benchWorkflow('Bench: HTTP Request node', settings.items, http))).id,
      },
    ];
    const samples = { pagerly: { node: [] as number[], execution: [] as number[] }, httpRequest: { node: [] as number[], execution: [] as number[] } };
    const problems: string[] = [];
    const opened = { pagerly: [] as Record<string, unknown>[], httpRequest: [] as Record<string, unknown>[] };
    for (let round = 0; round < settings.warmupRounds + settings.rounds; round++) {
      // The order alternates every round, so neither way always runs on a warmer engine.
      for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
        const before = sandbox.world.incidents.size;
        const result = await runOnce(rest, engine, way.id, way.node);
        if (result.items !== settings.items) problems.push(`${way.node}: ${result.items} items out, not ${settings.items}`);
        const incidents = [...sandbox.world.incidents.values()].slice(before);
        if (incidents.length !== settings.items) problems.push(`${way.node}: ${incidents.length} incidents opened, not ${settings.items}`);
        opened[way.key] = incidents.map((incident) => ({ ...incident }));
        if (round < settings.warmupRounds) continue;
        samples[way.key].node.push(result.nodeMs);
        samples[way.key].execution.push(result.executionMs);
      }
    }
    const shape = (incident: Record<string, unknown>) => JSON.stringify({ ...incident, id: undefined, created_at: undefined, updated_at: undefined });
    // The HTTP Request node may send its items' requests at once, so they can arrive in any order.
    const shapes = (incidents: Record<string, unknown>[]) => JSON.stringify(incidents.map(shape).sort());
    const alike = opened.pagerly.length > 0 && shapes(opened.pagerly) === shapes(opened.httpRequest);
    if (!alike) {
      const [ours, theirs] = [opened.pagerly, opened.httpRequest].map((incidents) => incidents.map(shape).sort()[0]);
      problems.push(`the two nodes did not open the same incidents: ${ours} ≠ ${theirs}`);
    }
    const way = (key: 'pagerly' | 'httpRequest'): Way => ({
      runsMs: samples[key].node,
      medianMs: round(median(samples[key].node), 1),
      executionMedianMs: round(median(samples[key].execution), 1),
    });
    const [p, h] = [way('pagerly'), way('httpRequest')];
    return {
      settings,
      n8n: DEFAULT_LINE.n8n,
      node: process.versions.node,
      request: `POST /o/incident {title, severity, teamname}, ${settings.items} items a run`,
      pagerly: p,
      httpRequest: h,
      pagerlyOverHttp: round(median(samples.pagerly.node) / median(samples.httpRequest.node), 3),
      aim: N8N_NODE_OVER_HTTP_AIM,
      incidents: { pagerly: opened.pagerly.length, httpRequest: opened.httpRequest.length, alike },
      problems,
    };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nn8n's log (last lines):\n${n8n.serverLog().split('\n').slice(-15).join('\n')}`);
  } finally {
    clearTimeout(timer);
    await n8n.stop();
    n8n.remove();
    await sandbox.close();
  }
}
