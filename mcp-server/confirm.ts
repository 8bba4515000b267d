import { createHash, hkdfSync } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type McpRequestContext,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { showInvisibleControls } from '../shared/visible-controls.ts';
import type { ToolResult } from './run-tool.ts';
import type { ToolDefinition } from './tools.ts';

/**
 * Asking the person before a tool that cannot be taken back (MCP spec 2025-06-18,
 * client/elicitation: the server asks the user directly through the client). The model's
 * promise to confirm (the server's instructions) is the model's; this is the person's own yes.
 *
 * Written once for both eras, as the SDK's multi-round-trip pattern: the handler returns an
 * `input_required` result naming the question, and is called again with the answer. A
 * 2026-07-28 client fulfils it itself and calls again (on stdio and on stateless HTTP alike);
 * on a 2025-era connection (stdio) the SDK sends the client a real `elicitation/create` and
 * calls the handler again. Whether the client can be asked is read as the SDK reads it for
 * that question: from the request's own `_meta` on 2026-07-28, from the connection's
 * `initialize` on a 2025-era one, by the era the SDK's serving entry built the instance for.
 *
 * Where the client cannot be asked (it declared no form elicitation, or it is a 2025-era
 * client over stateless HTTP, whose `initialize` this server never saw), the tool acts as it
 * always did, on the model's own confirmation, which the server's instructions ask for: hosts
 * call a tool once, and a refusal the model can lift with an argument would protect nothing.
 */

/** The key of the question in `inputRequests`, and of the one field of its form. */
const CONFIRM = 'confirm';

/** The era an instance serves, as the SDK's serving entries (`serveStdio`, `createMcpHandler`) tell its factory. */
export type Era = McpRequestContext['era'];

/** Whether the client can show a form to its user: `elicitation: {}` (form, by the spec's default) or `elicitation.form`. */
export function canAskUser(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (!elicitation) return false;
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/**
 * Whether this request's client can be asked, read where the SDK reads it before it lets a
 * question out (its per-request capability view): on 2026-07-28, the capabilities the request
 * itself carries, and only those; on a 2025-era connection, what the client declared at
 * `initialize`, whatever a request's `_meta` claims (none when no `initialize` was seen: the
 * stateless HTTP fallback serves each request on a fresh instance, so that client is not asked).
 */
export function askable(era: Era, ctx: ServerContext, initialized: ClientCapabilities | undefined): boolean {
  if (era === 'modern') {
    return canAskUser((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined);
  }
  return canAskUser(initialized);
}

/**
 * What the person reads: the tool's title, the arguments as given, and what cannot be undone.
 * The arguments are the model's text: an invisible character in them (a joiner or a tag
 * character, which an address may hold) is shown as its escape, so the person agrees to the
 * address that will be sent, not to one it only looks like (shared/visible-controls.ts).
 */
export function questionFor(tool: ToolDefinition, args: Record<string, unknown>): string {
  const given = Object.entries(args)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${showInvisibleControls(typeof value === 'string' ? value : JSON.stringify(value))}`)
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

/** How long a question's answer is taken: the SDK's round time-out for a 2025-era client's answer too (600 s). */
const CONFIRMATION_TTL_SECONDS = 600;

/**
 * The codec of the state a question carries (`requestState`), which comes back from the client
 * with the answer (MCP spec 2026-07-28, basic/patterns/mrtr: the state is untrusted input the
 * server integrity-protects). It names the call asked about, so an answer counts only for that
 * call; HMAC-signed with a key derived from the API key the call is made with, so a state
 * minted for one key does not verify under another, and every instance behind a load balancer
 * that holds the key verifies it (one that does not hold it could call the service itself).
 */
export function confirmationCodec(apiKey: string | undefined): RequestStateCodec<{ readonly call: string }> {
  const key = new Uint8Array(hkdfSync('sha256', apiKey ?? '', 'pagerly-mcp', 'confirmation request state', 32));
  return createRequestStateCodec({ key, ttlSeconds: CONFIRMATION_TTL_SECONDS });
}

/** The call a question is about: the tool and its arguments, whatever their order. */
function callOf(tool: ToolDefinition, args: Record<string, unknown>): string {
  const named = Object.keys(args)
    .filter((key) => args[key] !== undefined)
    .sort()
    .map((key) => [key, args[key]]);
  return createHash('sha256')
    .update(JSON.stringify([tool.name, named]))
    .digest('base64url');
}

/**
 * Before a tool that asks first: the question (an `input_required` result), the person's "no"
 * (the call's result: nothing sent), or undefined to go ahead (the person's yes, or a client
 * that cannot be asked). An answer counts only with the state of the question it answers, for
 * this very call: one sent unasked, or carried over from another call, asks again.
 */
export async function confirmationStep(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  ctx: ServerContext,
  canAsk: boolean,
  codec: RequestStateCodec<{ readonly call: string }>,
  redact: (text: string) => string = (text) => text,
): Promise<InputRequiredResult | ToolResult | undefined> {
  if (!tool.asksFirst || !canAsk) return undefined;
  const call = callOf(tool, args);
  const state = ctx.mcpReq.requestState<{ call?: unknown } | undefined>();
  const answer = state?.call === call ? inputResponse(ctx.mcpReq.inputResponses, CONFIRM) : undefined;
  if (answer?.kind !== 'elicit') {
    return inputRequired({
      inputRequests: { [CONFIRM]: inputRequired.elicit({ message: redact(questionFor(tool, args)), requestedSchema: form() }) },
      requestState: await codec.mint({ call }),
    });
  }
  if (answer.action === 'accept' && answer.content?.[CONFIRM] === true) return undefined;
  const how = answer.action === 'cancel' ? 'dismissed the question' : 'said no';
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
