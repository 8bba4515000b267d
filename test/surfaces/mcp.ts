import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createPagerlyMcpServer } from '../../mcp-server/server.ts';
import { codeOfSharedMessage, INPUT, type Outcome, type SurfaceDriver, type Target } from './driver.ts';

/**
 * A tool call through MCP: the server `pagerly mcp` runs (mcp-server/server.ts, write tools on)
 * and the SDK's client, linked by the SDK's in-memory transport, so every call goes as JSON-RPC
 * through both (test/mcp/e2e.test.ts runs the real process over stdio). Backoff as the typed
 * client's driver has it, so retried faults stay quick. A tool error has no code (MCP results
 * carry text): the kind is read from the shared wording, which the server passes on unchanged.
 */
export async function mcpCall(
  target: Target,
  tool: string,
  args: Record<string, unknown>,
  pick: (result: Record<string, unknown>) => unknown,
): Promise<Outcome> {
  const { baseUrl, apiKey, timeoutMs } = target;
  const server = createPagerlyMcpServer({
    apiKey,
    baseUrl,
    writeTools: true,
    version: 'test',
    backoffMs: 10,
    maxRetryAfterMs: 1_000,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const client = new Client({ name: 'battery', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    // As a host does: the tools listed first, so the client checks each result against its output schema.
    await client.listTools();
    const result = await client.callTool({ name: tool, arguments: args });
    const shown = { result };
    const text = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
    if (!result.isError) return { ok: true, value: pick((result.structuredContent ?? {}) as Record<string, unknown>), shown };
    return { ok: false, message: text, kind: codeOfSharedMessage(text), native: 'isError', own: !text.startsWith('Unexpected error'), shown };
  } catch (error) {
    // A JSON-RPC error (the call itself refused): not a tool result a model would read.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, kind: 'unknown', native: `JSON-RPC ${(error as { code?: unknown }).code}`, own: false, shown: { thrown: error } };
  } finally {
    await client.close();
    await server.close();
  }
}

export const mcpDriver: SurfaceDriver = {
  name: 'MCP',
  surface: 'MCP',
  read: (target) => mcpCall(target, 'list_teams', {}, (result) => result.teams),
  write: (target) => mcpCall(target, 'create_incident', { title: 'Disk full' }, (result) => result),
  checkKey: {
    gap: "the MCP server has no key-check tool: a host starts it before any key is used, and each tool call says when the key is refused (the read rows); the check itself is the typed client's row",
  },
  onCall: (target) => mcpCall(target, 'list_on_call_users', { teamname: INPUT.team }, (result) => result.on_call_users),
  everyoneOnCall: (target) => mcpCall(target, 'list_on_call_users', {}, (result) => result.on_call_users),
  directoryEntry: (target) =>
    mcpCall(target, 'get_directory_entry', { email: target.email ?? INPUT.email }, (result) => (result.directory_entries as unknown[] | undefined)?.[0] ?? {}),
  directoryWrite: (target) => mcpCall(target, 'update_directory_phone', { email: target.email ?? INPUT.email, phone: INPUT.phone }, (result) => result),
  redirect: { native: 'isError', statusSaid: (status) => `HTTP ${status}`, namesTargetHost: true, sameOrigin: 'followed' },
  hang: 'knob',
};
