import { McpServer } from '@modelcontextprotocol/server';
import { type ClientSummaries, createClient, type PagerlyClient } from '../shared/client.ts';
import { operationSummaries } from '../shared/operations/summaries.ts';
import { AuthenticationError } from '../shared/errors.ts';
import { endpoints } from '../shared/catalog/endpoints.ts';
import { operations } from '../shared/operations/index.ts';
import type { GotTransportOptions } from '../shared/transports/got-transport.ts';
import { errorResult, runTool, type ToolResult } from './run-tool.ts';
import { toolDefinitions, type ToolDefinition } from './tools.ts';
import { toolCallTransport } from './transport.ts';

/** The server's name in hosts' lists (and the prefix some give its tools). */
export const SERVER_NAME = 'pagerly';

/** The environment variable the key comes from: an MCP host puts it in the server's `env`. */
export const API_KEY_ENV = 'PAGERLY_API_KEY';

/** The flag that offers the tools that change data (PagerDuty's MCP server's convention). */
export const WRITE_FLAG = '--enable-write-tools';

export interface PagerlyMcpOptions extends Omit<GotTransportOptions, 'onRetry' | 'signal'> {
  /** From the environment only (MCP spec, basic/authorization: stdio servers take credentials from it). */
  readonly apiKey: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly rotationsBaseUrl?: string | undefined;
  /** Offer the write tools too; off by default, so a host that auto-approves cannot change data by accident. */
  readonly writeTools: boolean;
  readonly version: string;
}

/** The tools from the real descriptions and catalog, made once: every connection offers the same. */
export const tools: readonly ToolDefinition[] = toolDefinitions({ operations, endpoints });

/** The tools a server offers: the reads, and the writes when asked for. */
export const offeredTools = (writeTools: boolean, all: readonly ToolDefinition[] = tools) => all.filter((tool) => writeTools || !tool.writes);

/** What the server tells the model first (MCP's `instructions`): what it is for, and to confirm writes. */
export function instructionsFor(writeTools: boolean): string {
  const reads =
    'Pagerly is an on-call and incident service. Use list_on_call_users to find who is on call (in one team, or in every team), list_teams for the team names, get_directory_entry to look up a person by e-mail.';
  const writes = writeTools
    ? 'The tools that change data (create or update an incident, add, change or remove a person in the on-call directory) act at once and page or notify real people: before calling one, say what it will do and get the user\'s confirmation. A failure that says the request "may have been done anyway" must be checked before trying again.'
    : `This server is read-only: the tools that change data are offered only when it is started with ${WRITE_FLAG}.`;
  return `${reads} ${writes} A tool that fails says why and what to do in its text.`;
}

/** Said as a tool's result when the server was started without a key. */
const NO_KEY = `No API key: set ${API_KEY_ENV} in this server's "env" in the MCP client's configuration (the key is never a tool argument). An org admin generates keys in the Pagerly dashboard (API keys); a key acts as the person who generated it.`;

/**
 * One MCP server instance, with its tools registered from the definitions: every tool runs the
 * same code (run-tool.ts) on a client made for its call, whose requests the call's cancellation
 * aborts. The key is checked by the shared client, never shown: results carry only the shared
 * errors' messages, which are redacted.
 */
export function createPagerlyMcpServer(options: PagerlyMcpOptions, all: readonly ToolDefinition[] = tools): McpServer {
  const server = new McpServer({ name: SERVER_NAME, title: 'Pagerly', version: options.version }, { instructions: instructionsFor(options.writeTools) });
  const clientFor = (signal: AbortSignal, summaries: ClientSummaries): PagerlyClient => {
    const { apiKey, baseUrl, rotationsBaseUrl, writeTools: _w, version, ...transport } = options;
    return createClient({
      apiKey: apiKey ?? '',
      baseUrl,
      rotationsBaseUrl,
      userAgent: `pagerly-mcp/${version}`,
      transport: toolCallTransport({ ...transport, signal }),
      summaries,
    });
  };
  for (const tool of offeredTools(options.writeTools, all)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      async (args, ctx): Promise<ToolResult> => {
        if (!options.apiKey?.trim()) return errorResult(new AuthenticationError(NO_KEY));
        return runTool(tool, clientFor(ctx.mcpReq.signal, operationSummaries(tool.operation)), args as Record<string, unknown>);
      },
    );
  }
  return server;
}
