import { McpServer } from '@modelcontextprotocol/server';
import { type ClientSummaries, createClient, type PagerlyClient } from '../shared/client.ts';
import { operationSummaries } from '../shared/operations/summaries.ts';
import { AuthenticationError } from '../shared/errors.ts';
import { endpoints } from '../shared/catalog/endpoints.ts';
import { operations } from '../shared/operations/index.ts';
import type { Trace } from '../shared/http/trace.ts';
import type { FetchTransportOptions } from '../shared/transports/fetch-transport.ts';
import { redact } from '../shared/redact.ts';
import { askable, confirmationCodec, confirmationStep, type Era } from './confirm.ts';
import { errorResult, runTool } from './run-tool.ts';
import { toolCall } from './tool-call.ts';
import { toolDefinitions, type ToolDefinition } from './tools.ts';
import { toolCallTransport } from './transport.ts';
import { API_KEY_ENV } from '../shared/settings.ts';

/** The server's name in hosts' lists (and the prefix some give its tools). */
export const SERVER_NAME = 'pagerly';

/** The environment variable the key comes from: an MCP host puts it in the server's `env`. */
export { API_KEY_ENV };

/** The flag that offers the tools that change data (PagerDuty's MCP server's convention). */
export const WRITE_FLAG = '--enable-write-tools';

export interface PagerlyMcpOptions extends Omit<FetchTransportOptions, 'onRetry' | 'signal'> {
  /** From the environment only (MCP spec, basic/authorization: stdio servers take credentials from it). */
  readonly apiKey: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly rotationsBaseUrl?: string | undefined;
  /** Offer the write tools too; off by default, so a host that auto-approves cannot change data by accident. */
  readonly writeTools: boolean;
  /** Where the key comes from, for the advice a call without one gives: the environment (stdio, and HTTP by default) or each request's header. */
  readonly keySource?: 'environment' | 'header';
  /** Offer exactly these tools (`--tools`); checked by `offeredTools`. */
  readonly toolNames?: readonly string[] | undefined;
  readonly version: string;
  /** Each request's trace (`--debug`, PAGERLY_DEBUG): on stderr, never stdout, which is the protocol's on stdio. */
  readonly trace?: Trace | undefined;
  /**
   * Aborted at the shutdown deadline (shared/shutdown/drain.ts): a call still running is cut,
   * and answered that it was, a write with "may have been done".
   */
  readonly halt?: AbortSignal | undefined;
  /**
   * The protocol era this instance serves, as the SDK's serving entry tells its factory
   * (`serveStdio`, `createMcpHandler`): where a client's capabilities are read. An instance
   * connected by hand negotiates with `initialize`: 2025-era.
   */
  readonly era?: Era | undefined;
  /** The time a long read may take before it answers with what it has (tool-call.ts, ANSWER_WITHIN_MS). */
  readonly answerWithinMs?: number | undefined;
}

/** The tools from the real descriptions and catalog, made once: every connection offers the same. */
export const tools: readonly ToolDefinition[] = toolDefinitions({ operations, endpoints });

/** The flag that names the tools to offer (GitHub's MCP server's `--tools`, Grafana's `--enabled-tools`). */
export const TOOLS_FLAG = '--tools';

/**
 * The tools a server offers: the reads, and the writes when asked for; with `names`, exactly
 * those. A name that is no tool, or a write tool without the write flag, stops the server at
 * start-up rather than being dropped: an allow-list that silently lost an entry would leave a
 * team wondering why the model cannot see a tool (or, worse, why it can).
 */
export function offeredTools(writeTools: boolean, all: readonly ToolDefinition[] = tools, names?: readonly string[]): ToolDefinition[] {
  const offered = all.filter((tool) => writeTools || !tool.writes);
  if (names === undefined) return offered;
  const unknown = names.filter((name) => !all.some((tool) => tool.name === name));
  if (unknown.length) {
    const valid = all.map((tool) => (tool.writes ? `${tool.name} (with ${WRITE_FLAG})` : tool.name)).join(', ');
    throw new ToolSelectionError(`${TOOLS_FLAG}: no tool named ${unknown.map((name) => `"${name}"`).join(', ')}. The tools: ${valid}.`);
  }
  const writes = names.filter((name) => !offered.some((tool) => tool.name === name));
  if (writes.length)
    throw new ToolSelectionError(
      `${TOOLS_FLAG}: ${writes.join(', ')} change${writes.length === 1 ? 's' : ''} data: add ${WRITE_FLAG} to offer ${writes.length === 1 ? 'it' : 'them'}.`,
    );
  return offered.filter((tool) => names.includes(tool.name));
}

/** A tool selection the server cannot start with; its message lists the valid names. */
export class ToolSelectionError extends Error {
  override readonly name = 'ToolSelectionError';
}

/** `a,b , c` → the names; empty entries are ignored. */
export const toolNamesIn = (list: string): string[] =>
  list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** What the server tells the model first (MCP's `instructions`): what it is for, and to confirm writes. */
export function instructionsFor(writeTools: boolean, toolNames?: readonly string[]): string {
  // With --tools the model is told what it has, never pointed at a tool it was not given.
  const reads = toolNames
    ? `Pagerly is an on-call and incident service. This server offers these tools only: ${toolNames.join(', ')}.`
    : 'Pagerly is an on-call and incident service. Use list_on_call_users to find who is on call (in one team, or in every team), list_teams for the team names, get_directory_entry to look up a person by e-mail.';
  const writes = writeTools
    ? 'The tools that change data (create or update an incident, add, change or remove a person in the on-call directory) act at once and page or notify real people: before calling one, say what it will do and get the user\'s confirmation. A failure that says the request "may have been done anyway" must be checked before trying again.'
    : `This server is read-only: the tools that change data are offered only when it is started with ${WRITE_FLAG}.`;
  return `${reads} ${writes} A tool that fails says why and what to do in its text.`;
}

const WHO_MAKES_KEYS = 'An org admin generates keys in the Pagerly dashboard (API keys); a key acts as the person who generated it.';
/** Said as a tool's result when there is no key: where it should have come from. */
const NO_KEY = {
  environment: `No API key: set ${API_KEY_ENV} in this server's "env" in the MCP client's configuration (the key is never a tool argument). ${WHO_MAKES_KEYS}`,
  header: `No API key: this server takes each client's key from the X-APIKEY header of its requests; add it to the "headers" of this server in the MCP client's configuration (the key is never a tool argument). ${WHO_MAKES_KEYS}`,
} as const;

/**
 * One MCP server instance, with its tools registered from the definitions: every tool runs the
 * same code (run-tool.ts) on a client made for its call, whose requests the call's cancellation
 * aborts. The key is checked by the shared client, never shown: results carry only the shared
 * errors' messages, which are redacted.
 */
export function createPagerlyMcpServer(options: PagerlyMcpOptions, all: readonly ToolDefinition[] = tools): McpServer {
  const codec = confirmationCodec(options.apiKey);
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Pagerly', version: options.version },
    // A question's state comes back from the client: the SDK checks its signature before any tool runs.
    { instructions: instructionsFor(options.writeTools, options.toolNames), requestState: { verify: codec.verify } },
  );
  const clientFor = (signal: AbortSignal, summaries: ClientSummaries): PagerlyClient => {
    const {
      apiKey,
      baseUrl,
      rotationsBaseUrl,
      writeTools: _w,
      toolNames: _t,
      keySource: _k,
      halt: _h,
      era: _e,
      answerWithinMs: _a,
      version,
      ...transport
    } = options;
    return createClient({
      apiKey: apiKey ?? '',
      baseUrl,
      rotationsBaseUrl,
      userAgent: `pagerly-mcp/${version}`,
      transport: toolCallTransport({ ...transport, signal }),
      summaries,
    });
  };
  for (const tool of offeredTools(options.writeTools, all, options.toolNames)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      async (args, ctx) => {
        if (!options.apiKey?.trim()) return errorResult(new AuthenticationError(NO_KEY[options.keySource ?? 'environment']));
        const input = args as Record<string, unknown>;
        // The person is asked only once the call could go through: never for a call without a key.
        // On a 2025-era connection, what the client declared at `initialize` (the accessor's documented meaning there).
        const canAsk = askable(options.era ?? 'legacy', ctx, server.server.getClientCapabilities());
        const asked = await confirmationStep(tool, input, ctx, canAsk, codec, (text) => redact(text, [options.apiKey]));
        if (asked) return asked;
        const summaries = operationSummaries(tool.operation);
        const call = toolCall(ctx, options.halt ? AbortSignal.any([ctx.mcpReq.signal, options.halt]) : ctx.mcpReq.signal, options.answerWithinMs);
        return runTool(tool, clientFor(call.requests, summaries), input, options.halt && { halt: options.halt, summaries }, call);
      },
    );
  }
  return server;
}
