// One surface's "everyone on call" in a process of its own, so that its peak memory is its
// own: `node bench/scale-worker.ts <surface>` with PAGERLY_BASE_URL and PAGERLY_API_KEY set.
// Prints one JSON line: results, bytes of what the surface hands on, time, resident memory
// after loading the surface and at its peak (getrusage's maxrss). Run by bench/scale.ts.
import { Buffer } from 'node:buffer';

export const SURFACES = ['typed client', 'CLI', 'Zapier', 'Make', 'n8n', 'MCP', 'MCP, every page'] as const;
export type ScaleSurface = (typeof SURFACES)[number];

export interface WorkerFigures {
  surface: ScaleSurface;
  /** Results given: people on call, one per person and team (the CLI and client: people listed under their teams). */
  results: number;
  /** The people on call the surface found, where it hands on fewer (MCP's `limit`): its `total`. */
  read?: number;
  /** Tool calls made (MCP going on with `next_cursor` until the end). */
  calls?: number;
  /** Results given more than once (MCP's pages, each person and team once in all). */
  repeated?: number;
  /** The longest one tool call took (MCP's pages: each must answer before the client's time-out). */
  slowestCallMs?: number;
  /** Bytes of what the surface hands on (see `what`). */
  bytes: number;
  what: string;
  ms: number;
  rssAfterLoadMb: number;
  peakRssMb: number;
  error?: string;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const bytesOf = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

type Run = () => Promise<{ results: number; read?: number; calls?: number; repeated?: number; slowestCallMs?: number; bytes: number; what: string }>;

/** "Who is on call in every team" through the MCP server and the SDK's client, both in this process over the SDK's in-memory transport. */
async function mcpClient(baseUrl: string, apiKey: string) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { InMemoryTransport } = await import('@modelcontextprotocol/server');
  const { createPagerlyMcpServer } = await import('../mcp-server/server.ts');
  const server = createPagerlyMcpServer({ apiKey, baseUrl, writeTools: false, version: 'bench' });
  const client = new Client({ name: 'bench-scale', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: 'list_on_call_users', arguments: args });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
    if (result.isError) throw new McpToolError(text.slice(0, 300));
    const out = result.structuredContent as { on_call_users: { id: string; team: { id: string } }[]; total: number; next_cursor?: string };
    return { text, out };
  };
}

class McpToolError extends Error {}

/** The tool's answer when the service kept it waiting past the time a call has (a rate limit): a model tries again later. */
const TRY_AGAIN = /try again in a minute/;
/** How long a patient model waits before it does, and how often at most. */
const AGAIN_AFTER_MS = 30_000;
const MOST_TRIES = 20;

/** Each surface's everyone-on-call as its users get it, loaded only when asked for. */
async function prepare(surface: ScaleSurface, baseUrl: string, apiKey: string): Promise<Run> {
  switch (surface) {
    case 'typed client': {
      const { createNodeClient } = await import('../shared/node-client.ts');
      const { everyoneOnCall, onCallByTeam } = await import('../shared/on-call/by-team.ts');
      const client = createNodeClient({ apiKey, baseUrl });
      return async () => {
        const { onCall, failed } = everyoneOnCall(await onCallByTeam(client));
        if (failed[0]) throw failed[0].error;
        return { results: onCall.length, bytes: bytesOf(onCall), what: 'JSON of everyoneOnCall(onCallByTeam())' };
      };
    }
    case 'CLI': {
      const { main } = await import('../cli/main.ts');
      return async () => {
        let stdout = '';
        let stderr = '';
        const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
        const code = await main(['--base-url', baseUrl, 'on-call', '--json'], { PAGERLY_API_KEY: apiKey }, io);
        if (code !== 0) throw new Error(`exit ${code}: ${stderr.slice(0, 300)}`);
        const teams = (JSON.parse(stdout) as { teams: { onCall?: unknown[] }[] }).teams;
        return { results: teams.reduce((sum, team) => sum + (team.onCall?.length ?? 0), 0), bytes: bytesOf(stdout), what: 'stdout of pagerly on-call --json' };
      };
    }
    case 'Zapier': {
      const { createRequire } = await import('node:module');
      const { default: App } = await import('../zapier-app/index.ts');
      const { createAppHandler } = createRequire(import.meta.url)('zapier-platform-core') as {
        createAppHandler: (app: object) => (event: object) => Promise<{ results: unknown[] }>;
      };
      process.env.PAGERLY_BASE_URL = baseUrl;
      const handler = createAppHandler(App);
      const event = {
        command: 'execute',
        method: 'searches.find_on_call_users.operation.perform',
        bundle: { authData: { apiKey }, inputData: {} },
        calledFromCli: true,
      };
      return async () => {
        const { results } = await handler(event);
        return { results: results.length, bytes: bytesOf(results), what: "JSON of the search's results (zapier-platform-core's handler)" };
      };
    }
    case 'Make': {
      const { generateMakeApp } = await import('../make-app/generator/generate.ts');
      const { appFromFiles } = await import('../make-app/interpreter/runner/app-folder.ts');
      const { makeRunner } = await import('../make-app/interpreter/runner/runner.ts');
      const { DEFAULT_BASE_URL } = await import('../shared/settings.ts');
      const runner = makeRunner(appFromFiles(generateMakeApp()), { origin: { from: DEFAULT_BASE_URL, to: baseUrl } });
      const connection = { apiKey };
      return async () => {
        // Make asks one team a module run: a scenario reads the team list with "Make an API call"
        // (the team dropdown offers 100 teams at most) and iterates over it into the search module.
        const [answer] = (await runner.module('makeApiCall', { connection, parameters: { url: '/pagerly/o/zapier/allteams', method: 'GET' } })) as {
          body: { name: string }[];
        }[];
        const teams = answer?.body ?? [];
        const bundles: unknown[] = [];
        for (const team of teams) bundles.push(...((await runner.module('listOnCallUsers', { connection, parameters: { teamname: team.name } })) as unknown[]));
        return {
          results: bundles.length,
          bytes: bytesOf(bundles),
          what: `JSON of the bundles of ${teams.length.toLocaleString('en-US')} module runs (the runner)`,
        };
      };
    }
    case 'n8n': {
      const { executePagerly } = await import('../n8n-app/runtime/execute.ts');
      const { nodeOperations } = await import('../n8n-app/runtime/operations.ts');
      const { parametersFor } = await import('../n8n-app/e2e/workflows.ts');
      const { RETURN_ALL } = await import('../n8n-app/parameters.ts');
      const { classes, credentialFor, executeContext } = await import('../test/n8n/support.ts');
      const search = nodeOperations.find((operation) => operation.kind === 'search' && operation.id === 'getOnCallUsers');
      if (!search) throw new Error('the n8n node has no on-call search');
      const parameters = { ...parametersFor(search, '', { teamname: '' }), [RETURN_ALL]: true };
      return async () => {
        const [items = []] = await executePagerly(executeContext(credentialFor(apiKey, baseUrl), [parameters]).context, classes);
        return { results: items.length, bytes: bytesOf(items.map((item) => item.json)), what: "JSON of the node's items, Return All (its runtime)" };
      };
    }
    case 'MCP': {
      const call = await mcpClient(baseUrl, apiKey);
      return async () => {
        // The tool hands the model its first `limit` results (100 by default) and reads only the teams that hold them.
        const { text, out } = await call({});
        return {
          results: out.on_call_users.length,
          read: out.total,
          bytes: bytesOf(text),
          what: "the tool result's text, what the model reads (server and client in this process)",
        };
      };
    }
    case 'MCP, every page': {
      const call = await mcpClient(baseUrl, apiKey);
      return async () => {
        // A model that wants everyone: 500 a call (the most limit takes), going on with next_cursor
        // to the end; told to try again in a minute (under a rate limit), it waits and does.
        const seen = new Set<string>();
        let results = 0;
        let bytes = 0;
        let calls = 0;
        let waits = 0;
        let cursor: string | undefined;
        let slowestCallMs = 0;
        const timed = async (args: Record<string, unknown>) => {
          const started = performance.now();
          try {
            return await call(args);
          } finally {
            slowestCallMs = Math.max(slowestCallMs, performance.now() - started);
          }
        };
        const page = async (args: Record<string, unknown>) => {
          for (;;) {
            try {
              return await timed(args);
            } catch (error) {
              calls++;
              if (!(error instanceof McpToolError && TRY_AGAIN.test(error.message)) || ++waits > MOST_TRIES) throw error;
              await new Promise((resolve) => setTimeout(resolve, AGAIN_AFTER_MS));
            }
          }
        };
        do {
          const { text, out } = await page({ limit: 500, ...(cursor ? { cursor } : {}) });
          for (const person of out.on_call_users) seen.add(`${person.team.id}:${person.id}`);
          results += out.on_call_users.length;
          bytes += bytesOf(text);
          calls++;
          cursor = out.next_cursor;
        } while (cursor);
        return {
          results,
          repeated: results - seen.size,
          calls,
          slowestCallMs,
          bytes,
          what: `the text of ${calls} tool results, limit 500, each going on from the last one's next_cursor${waits ? ` (${waits} told to try again, after ${AGAIN_AFTER_MS / 1000} s)` : ''}`,
        };
      };
    }
  }
}

async function measure(surface: ScaleSurface): Promise<WorkerFigures> {
  const baseUrl = process.env.PAGERLY_BASE_URL ?? '';
  const apiKey = process.env.PAGERLY_API_KEY ?? '';
  const run = await prepare(surface, baseUrl, apiKey);
  const rssAfterLoadMb = mb(process.memoryUsage().rss);
  const started = performance.now();
  try {
    const { results, bytes, what, ...more } = await run();
    const ms = performance.now() - started;
    return { surface, results, ...more, bytes, what, ms, rssAfterLoadMb, peakRssMb: mb(process.resourceUsage().maxRSS * 1024) };
  } catch (error) {
    const ms = performance.now() - started;
    const message = error instanceof Error ? error.message : String(error);
    return { surface, results: 0, bytes: 0, what: '', ms, rssAfterLoadMb, peakRssMb: mb(process.resourceUsage().maxRSS * 1024), error: message.slice(0, 300) };
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''))) {
  const surface = process.argv[2] as ScaleSurface;
  if (!SURFACES.includes(surface)) {
    console.error(`give one of: ${SURFACES.join(', ')}`);
    process.exit(2);
  }
  console.log(JSON.stringify(await measure(surface)));
  // Sockets kept alive by a client would hold the process open.
  process.exit(0);
}
