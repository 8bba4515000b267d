import { type InputRequiredResult, inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ToolResult } from './run-tool.ts';
import type { ToolDefinition } from './tools.ts';

/**
 * Asking the person before a tool that cannot be taken back (MCP spec 2025-06-18,
 * client/elicitation: the server asks the user directly through the client). The model's
 * promise to confirm (the server's instructions) is the model's; this is the person's own yes.
 *
 * Written once for both eras, as the SDK's multi-round-trip pattern: the handler returns an
 * `input_required` result naming the question, and is called again with the answer. A
 * 2026-07-28 client fulfils it itself (so it works on the stateless HTTP server too); on a
 * 2025-era connection (stdio) the SDK sends the client a real `elicitation/create` and calls
 * the handler again. A client that declared no form elicitation is not asked: it gets the tool
 * as it was, so nothing breaks for hosts without it (a 2025-era client over stateless HTTP is
 * one: a server made for one request never saw its `initialize`).
 */

/** The key of the question in `inputRequests`, and of the one field of its form. */
const CONFIRM = 'confirm';

/** Whether the client can show a form to its user: `elicitation: {}` (form, by the spec's default) or `elicitation.form`. */
export function canAskUser(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (!elicitation) return false;
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/** What the person reads: the tool's title, the arguments as given, and what cannot be undone. */
export function questionFor(tool: ToolDefinition, args: Record<string, unknown>): string {
  const given = Object.entries(args)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  const undo = tool.operation.kind === 'action' && tool.operation.irreversible ? ` ${tool.operation.irreversible}` : '';
  return `An AI assistant wants to ${tool.title.charAt(0).toLowerCase()}${tool.title.slice(1)} in Pagerly (${given}).${undo} Go ahead?`;
}

/** The form: one yes/no field, required, so an accepted empty form is no yes. */
const form = () => ({
  type: 'object' as const,
  properties: { [CONFIRM]: { type: 'boolean' as const, title: 'Go ahead', description: 'Tick to let the assistant do this now.' } },
  required: [CONFIRM],
});

/**
 * Before a tool that asks first: the question (an `input_required` result), the person's "no" as
 * the call's result (nothing sent), or undefined to go ahead (a yes, or a client that cannot ask).
 */
export function confirmationStep(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  ctx: ServerContext,
  capabilities: ClientCapabilities | undefined,
  redact: (text: string) => string = (text) => text,
): InputRequiredResult | ToolResult | undefined {
  if (!tool.asksFirst) return undefined;
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM);
  if (answer.kind === 'missing') {
    if (!canAskUser(capabilities)) return undefined;
    return inputRequired({ inputRequests: { [CONFIRM]: inputRequired.elicit({ message: redact(questionFor(tool, args)), requestedSchema: form() }) } });
  }
  if (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.[CONFIRM] === true) return undefined;
  const how = answer.kind === 'elicit' && answer.action === 'cancel' ? 'dismissed the question' : 'said no';
  return {
    content: [
      {
        type: 'text',
        text: `Not done: the user ${how}, so ${tool.name} was not called and nothing changed in Pagerly. Do not try again unless the user asks.`,
      },
    ],
    isError: true,
  };
}
