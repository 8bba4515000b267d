import type { PagerlyClient } from '../shared/client.ts';
import { isPagerlyError } from '../shared/errors.ts';
import { actionResult } from '../shared/operations/action-result.ts';
import { endpointInput } from '../shared/operations/endpoint-input.ts';
import { runSearch } from '../shared/operations/search-results.ts';
import { AS_OF, type ToolDefinition } from './tools.ts';

/** A tool's result as MCP carries it (MCP spec, server/tools: CallToolResult). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * What a tool call does, the same for every tool: the arguments as the endpoint takes them
 * (empty ones left out, as every surface does), then the operation as every platform runs it:
 * a search by `runSearch` (team by team where the description says so), an action by
 * `actionResult` (an update of a replace-only record reads it first), a list by its endpoint.
 */
async function outputOf(tool: ToolDefinition, client: PagerlyClient, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { operation, resultKey } = tool;
  const input = endpointInput(operation.inputFields, args);
  const asOf = new Date().toISOString();
  let value: unknown;
  if (operation.kind === 'search') value = await runSearch(operation, client, input);
  else if (operation.kind === 'list') value = await client.send(operation.endpoint, input);
  else value = await actionResult(operation, input, client);
  if (resultKey) return { [resultKey]: Array.isArray(value) ? value : [], [AS_OF]: asOf };
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A call's result: `structuredContent` and the same JSON as text (MCP spec, server/tools,
 * "Structured Content": a tool that returns structured content should also return it as
 * text, for clients that read only `content`). A failure is a result with `isError` and the
 * shared error's message, which says what to do and holds no key, and no `structuredContent`:
 * the model reads the message and may correct itself (MCP spec, "Error Handling").
 */
export async function runTool(tool: ToolDefinition, client: PagerlyClient, args: Record<string, unknown>): Promise<ToolResult> {
  try {
    const output = redacted(await outputOf(tool, client, args), client);
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    return errorResult(error, client);
  }
}

/** Every string of a value (keys too) through `redact`. */
function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redact(key), redactDeep(inner, redact)]));
}

/**
 * An answer as it goes to the model, with the key taken out wherever a service put it (an
 * echo in a name, a URL): checked on the whole text once, cleaned field by field only when it
 * holds one, so the JSON stays whole and an ordinary answer costs one scan.
 */
function redacted(output: Record<string, unknown>, client: Pick<PagerlyClient, 'redact'>): Record<string, unknown> {
  const text = JSON.stringify(output);
  return client.redact(text) === text ? output : (redactDeep(output, client.redact) as Record<string, unknown>);
}

/** A failure as a tool result: the shared error's message, or for anything else its message redacted. */
export function errorResult(error: unknown, client?: Pick<PagerlyClient, 'redact'>): ToolResult {
  const text = isPagerlyError(error)
    ? error.message
    : `Unexpected error: ${client ? client.redact(error instanceof Error ? error.message : String(error)) : 'see the server log'}`;
  return { content: [{ type: 'text', text }], isError: true };
}
