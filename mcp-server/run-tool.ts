import type { ClientSummaries, PagerlyClient } from '../shared/client.ts';
import { isPagerlyError } from '../shared/errors.ts';
import { actionResult } from '../shared/operations/action-result.ts';
import { endpointInput } from '../shared/operations/endpoint-input.ts';
import { runSearch } from '../shared/operations/search-results.ts';
import { jsonShowingControls, showControlsInJson, showInvisibleControls } from '../shared/visible-controls.ts';
import { cutAtDeadline } from './cut-at-deadline.ts';
import { type OnCallPage, onCallPage, pageNote } from './on-call-page.ts';
import type { ToolCall } from './tool-call.ts';
import { AS_OF, DEFAULT_LIMIT, MAX_RESULT_CHARS, NEXT_CURSOR, type ToolDefinition } from './tools.ts';

/** A tool's result as MCP carries it (MCP spec, server/tools: CallToolResult). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The `limit` a call asked for, or the default. */
const limitOf = (args: Record<string, unknown>) => (typeof args.limit === 'number' ? args.limit : DEFAULT_LIMIT);

/**
 * What a tool call does, the same for every tool: the arguments as the endpoint takes them
 * (empty ones left out, as every surface does), then the operation as every platform runs it:
 * a search by `runSearch`, or, read team by team, one page of it (on-call-page.ts); an action
 * by `actionResult` (an update of a replace-only record reads it first); a list by its endpoint.
 */
async function outputOf(
  tool: ToolDefinition,
  client: PagerlyClient,
  args: Record<string, unknown>,
  call: ToolCall | undefined,
): Promise<{ output: Record<string, unknown>; page?: OnCallPage }> {
  const { operation, resultKey } = tool;
  const input = endpointInput(operation.inputFields, args);
  const asOf = new Date().toISOString();
  if (operation.kind === 'search' && operation.teamByTeam && resultKey) {
    const page = await onCallPage(tool, operation, client, args, input, limitOf(args), call);
    return { output: { [resultKey]: page.items, [AS_OF]: asOf }, page };
  }
  const filter = tool.bounds?.filter;
  const wanted = typeof args[filter?.arg ?? ''] === 'string' ? (args[filter!.arg] as string).trim().toLowerCase() : '';
  const matches = (name: unknown) => !wanted || (typeof name === 'string' && name.toLowerCase().includes(wanted));
  let value: unknown;
  if (operation.kind === 'search') value = await runSearch(operation, client, input);
  else if (operation.kind === 'list') value = await client.send(operation.endpoint, input);
  else value = await actionResult(operation, input, client);
  if (resultKey) {
    let items = Array.isArray(value) ? value : [];
    if (filter?.on === 'items' && wanted) items = items.filter((item) => matches((item as Record<string, unknown> | null)?.[filter.field]));
    return { output: { [resultKey]: items, [AS_OF]: asOf } };
  }
  return { output: value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {} };
}

/**
 * A call's result: `structuredContent` and the same JSON as text (MCP spec, server/tools,
 * "Structured Content": a tool that returns structured content should also return it as
 * text, for clients that read only `content`). A failure is a result with `isError` and the
 * shared error's message, which says what to do and holds no key, and no `structuredContent`:
 * the model reads the message and may correct itself (MCP spec, "Error Handling").
 * A call cut by `stop.halt` (the shutdown deadline) says so (cut-at-deadline.ts). `call` is
 * what the call runs under (tool-call.ts): its cancellation, its time, its progress.
 */
export async function runTool(
  tool: ToolDefinition,
  client: PagerlyClient,
  args: Record<string, unknown>,
  stop?: { readonly halt: AbortSignal; readonly summaries: ClientSummaries },
  call?: ToolCall,
): Promise<ToolResult> {
  try {
    const { output, page } = await outputOf(tool, client, args, call);
    // Cut first, then redact what is shown: the whole of a long list is never written out as text.
    const { output: shown, text } = bounded(tool, output, args, (value) => redacted(value, client), page);
    return { content: [{ type: 'text', text }], structuredContent: shown };
  } catch (error) {
    return errorResult(stop?.halt.aborted ? cutAtDeadline(error, stop.summaries) : error, client);
  }
}

/** A result as it goes out: the structured value and its JSON text, made once. */
interface Shown {
  readonly output: Record<string, unknown>;
  readonly text: string;
}

/**
 * A list as a model receives it: at most `limit` items (100 unless asked), and whatever that
 * says, a text of at most MAX_RESULT_CHARS: "everyone on call" in a large organization would
 * otherwise fill the model's context with people it will not read. `total` says how many there
 * were; `note` says what was left out and how to narrow the question. A page of a resumable
 * read also says how many teams it read of how many, and where the next page starts.
 */
export function bounded(
  tool: Pick<ToolDefinition, 'bounds' | 'resultKey'>,
  output: Record<string, unknown>,
  args: Record<string, unknown>,
  clean: (shown: Record<string, unknown>) => Shown = (shown) => ({ output: shown, text: jsonShowingControls(shown) }),
  page?: OnCallPage,
): Shown {
  const { bounds, resultKey } = tool;
  if (!bounds || !resultKey) return clean(output);
  const all = output[resultKey] as unknown[];
  const limit = limitOf(args);
  const narrow = bounds.filter ? `; narrow it with ${bounds.filter.on === 'teams' ? 'teamname or team_contains' : bounds.filter.arg}` : '';
  const filterArg = bounds.filter?.arg;
  const filtered = filterArg && typeof args[filterArg] === 'string';
  let shown = all.slice(0, limit);
  const result = (items: unknown[]) => {
    const cut = items.length < all.length;
    const nextCursor = page?.cursorAfter(items.length);
    const walk = page?.walk;
    const read = page && {
      teams_read: walk?.teamsRead ?? 0,
      teams_total: walk?.teamsTotal ?? 0,
      ...(nextCursor === undefined ? {} : { [NEXT_CURSOR]: nextCursor }),
    };
    const note =
      page && nextCursor !== undefined
        ? pageNote(page, items.length, limit, narrow)
        : cut
          ? `Showing the first ${items.length} of ${all.length}${items.length < limit ? ` (the most that fit in one answer)` : ''}${narrow}${items.length < limit ? '' : `, or raise limit`}.`
          : all.length === 0 && filtered
            ? `Nothing matches ${filterArg} "${String(args[filterArg!])}"${bounds.filter?.on === 'teams' ? ': list_teams gives the team names' : ''}.`
            : undefined;
    return clean({ ...output, [resultKey]: items, total: all.length, ...read, ...(note ? { note } : {}) });
  };
  let out = result(shown);
  while (out.text.length > MAX_RESULT_CHARS && shown.length > 0) {
    // Cut in proportion to the overshoot (with a margin for the note), then check again.
    shown = shown.slice(0, Math.max(0, Math.min(shown.length - 1, Math.floor((shown.length * MAX_RESULT_CHARS) / out.text.length) - 1)));
    out = result(shown);
  }
  return out;
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
 * holds one, so the JSON stays whole and an ordinary answer costs one scan. The text shows the
 * service's invisible controls as JSON escapes (shared/visible-controls.ts): the model, and the
 * person its host shows the result to, see them rather than text they reorder or hide; it
 * parses to `structuredContent`, the data as it came.
 */
function redacted(output: Record<string, unknown>, client: Pick<PagerlyClient, 'redact'>): Shown {
  const text = JSON.stringify(output);
  if (client.redact(text) === text) return { output, text: showControlsInJson(text) };
  const clean = redactDeep(output, client.redact) as Record<string, unknown>;
  return { output: clean, text: jsonShowingControls(clean) };
}

/**
 * A failure as a tool result: the shared error's message, or for anything else its message
 * redacted; the service's reason in it with its invisible controls shown (shared/visible-controls.ts).
 */
export function errorResult(error: unknown, client?: Pick<PagerlyClient, 'redact'>): ToolResult {
  const text = isPagerlyError(error)
    ? error.message
    : `Unexpected error: ${client ? client.redact(error instanceof Error ? error.message : String(error)) : 'see the server log'}`;
  return { content: [{ type: 'text', text: cut(showInvisibleControls(text)) }], isError: true };
}

/** The most of a failure's text a model is given: enough for any advice, never a whole organization quoted back. */
export const MAX_ERROR_CHARS = 2_000;

/** A redacted text cut to MAX_ERROR_CHARS (cut only after redaction, so no piece of a key is left half-shown). */
function cut(text: string): string {
  if (text.length <= MAX_ERROR_CHARS) return text;
  const end = MAX_ERROR_CHARS - 12;
  // Never split a surrogate pair.
  const at = /[\uD800-\uDBFF]/.test(text.charAt(end - 1)) ? end - 1 : end;
  return `${text.slice(0, at)}… (cut)`;
}
