// Part 5: "who is on call" in one team as an MCP tools/call over stdio to `pagerly mcp` (a real
// process, the SDK's client), over Streamable HTTP to `pagerly mcp --http` (a real process, the
// SDK's HTTP client; stateless, so a fresh server per request), next to the same search through the typed client in this process
// (the shared runSearch: the team list, then the team), against one sandbox. Run one call at a
// time, rotating which goes first each round: this is per-call cost, not throughput. A third
// way, the same server over the SDK's in-memory transport in this process, splits the gap: what
// the MCP layer costs in process (the SDK's protocol work and the server's tool code around the
// search), and what the second process and its pipes add.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createPagerlyMcpServer } from '../mcp-server/server.ts';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { findOnCallUsers } from '../shared/operations/searches.ts';
import { runSearch } from '../shared/operations/search-results.ts';
import { createNodeClient } from '../shared/node-client.ts';
import { median, percentile, round } from './stats.ts';

/** The aim for the MCP call's median over the typed client's: printed, never a failure. */
export const MCP_OVER_CLIENT_AIM = 1.2;
/**
 * The guard: the stdio call's median over the typed client's above this fails the run. Measured
 * at 1.8–2.4× on this 2-core machine (a second process and its pipes, the SDK's protocol work);
 * the guard catches a regression without failing on that noise.
 */
export const MCP_OVER_CLIENT_GUARD = 2.5;

const BIN = fileURLToPath(new URL('../bin/pagerly.js', import.meta.url));
const TEAM = 'Payments';

export interface McpOverheadSettings {
  runs: number;
  warmupRuns: number;
}

interface Timing {
  medianMs: number;
  p90Ms: number;
}

export interface McpOverheadFigures {
  settings: McpOverheadSettings;
  call: string;
  mcp: Timing;
  /** `pagerly mcp --http` with the SDK's Streamable HTTP client: a request, a fresh server and an SSE answer per call. */
  mcpHttp: Timing;
  /** The same server and client over the SDK's in-memory transport: no second process, no pipes. */
  mcpInProcess: Timing;
  client: Timing;
  /** The MCP call's median ÷ the typed client's. */
  mcpOverClient: number;
  /** The HTTP MCP call's median ÷ the typed client's. */
  httpOverClient: number;
  /** The in-memory MCP call's median ÷ the typed client's: the MCP layer's share of the gap, without the second process. */
  inProcessOverClient: number;
  aim: number;
  guard: number;
  problems: string[];
}

/** `pagerly mcp --http --port 0` until closed; resolves with its URL once it listens. */
function startHttpServer(env: Record<string, string>): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /on (http:\/\/\S+\/mcp) /.exec(stderr)?.[1];
      if (url) resolve({ url, close: () => child.kill() });
    });
    child.on('close', (code) => reject(new Error(`pagerly mcp --http ended (${code}) before it listened: ${stderr}`)));
  });
}

const timing = (samples: number[]): Timing => ({ medianMs: round(median(samples), 3), p90Ms: round(percentile(samples, 90), 3) });

export async function measureMcpOverhead(settings: McpOverheadSettings): Promise<McpOverheadFigures> {
  const problems: string[] = [];
  // No rate limit: the rounds send more requests in a minute than the sandbox's default allows,
  // and one call would then wait out a Retry-After inside the figures.
  const sandbox = await createSandbox({ rateLimit: false });
  const url = await sandbox.listen();
  const apiKey = demoKeys.acmeAdmin;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: apiKey, PAGERLY_BASE_URL: url },
    stderr: 'ignore',
  });
  const mcp = new Client({ name: 'bench', version: '1.0.0' });
  const httpServer = await startHttpServer({ PAGERLY_API_KEY: apiKey, PAGERLY_BASE_URL: url });
  const overHttp = new Client({ name: 'bench-http', version: '1.0.0' });
  const inProcess = new Client({ name: 'bench-in-process', version: '1.0.0' });
  const server = createPagerlyMcpServer({ apiKey, baseUrl: url, writeTools: false, version: 'bench' });
  const client = createNodeClient({ apiKey, baseUrl: url });
  try {
    await mcp.connect(transport);
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(httpServer.url)));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await inProcess.connect(clientSide);
    const onCall = (via: Client) => async () => {
      const result = await via.callTool({ name: 'list_on_call_users', arguments: { teamname: TEAM } });
      if (result.isError) throw new Error(`the MCP call failed: ${JSON.stringify(result.content)}`);
      return (result.structuredContent as { on_call_users: unknown[] }).on_call_users;
    };
    const ways = {
      mcp: onCall(mcp),
      mcpHttp: onCall(overHttp),
      mcpInProcess: onCall(inProcess),
      client: () => runSearch(findOnCallUsers, client, { teamname: TEAM }),
    };
    const names = Object.keys(ways) as (keyof typeof ways)[];
    const first = await Promise.all(names.map((way) => ways[way]().then((answer) => JSON.stringify(answer))));
    if (new Set(first).size !== 1) problems.push('the MCP calls and the typed client answered differently');
    const samples: Record<keyof typeof ways, number[]> = { mcp: [], mcpHttp: [], mcpInProcess: [], client: [] };
    for (let turn = 0; turn < settings.warmupRuns + settings.runs; turn++) {
      const order = [...names.slice(turn % names.length), ...names.slice(0, turn % names.length)];
      for (const way of order) {
        const started = performance.now();
        await ways[way]();
        if (turn >= settings.warmupRuns) samples[way].push(performance.now() - started);
      }
    }
    const figures = { mcp: timing(samples.mcp), mcpHttp: timing(samples.mcpHttp), mcpInProcess: timing(samples.mcpInProcess), client: timing(samples.client) };
    const mcpOverClient = round(figures.mcp.medianMs / figures.client.medianMs, 2);
    const httpOverClient = round(figures.mcpHttp.medianMs / figures.client.medianMs, 2);
    const inProcessOverClient = round(figures.mcpInProcess.medianMs / figures.client.medianMs, 2);
    if (mcpOverClient > MCP_OVER_CLIENT_GUARD)
      problems.push(`the MCP call over stdio took ${mcpOverClient}× the typed client's median (guard ≤ ${MCP_OVER_CLIENT_GUARD}×)`);
    return {
      settings,
      call: `list_on_call_users {teamname: "${TEAM}"} (GET allteams, then GET currentusers)`,
      ...figures,
      mcpOverClient,
      httpOverClient,
      inProcessOverClient,
      aim: MCP_OVER_CLIENT_AIM,
      guard: MCP_OVER_CLIENT_GUARD,
      problems,
    };
  } finally {
    // Each closed whatever the others do: a sandbox left listening would hold the run open.
    await Promise.allSettled([mcp.close(), overHttp.close(), inProcess.close(), server.close()]);
    httpServer.close();
    await sandbox.close();
  }
}
