import * as z from 'zod/mini';
import type { Endpoint } from '../shared/catalog/endpoint.ts';
import { MAX_CURSOR_CHARS } from '../shared/on-call/walk-cursor.ts';
import { CUSTOM_VALUE_NOTE } from '../shared/operations/fields.ts';
import { retiringNote } from '../shared/operations/retiring.ts';
import { type ToolWords, toolWords, withMcpNotes } from './agent-words.ts';
import type { InputField, Operation, OutputField } from '../shared/operations/types.ts';
import type { SurfaceSource } from '../surfaces/surface.ts';
import { mcpName, mcpText } from './operation-names.ts';

/**
 * The MCP tools, made from the operation descriptions and the catalog: one tool per action,
 * search and list, nothing written per operation. What a tool does when called is
 * mcp-server/run-tool.ts; how the server offers them is mcp-server/server.ts.
 */

type AnyOperation = Exclude<Operation, { kind: 'hook' }>;

/** The MCP tool annotations this server sets (MCP spec, server/tools: ToolAnnotations). */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * A zod/mini object as the SDK takes a tool's schema: a Standard Schema that also converts
 * itself to JSON Schema (Standard JSON Schema, which zod's classic API adds to its schemas but
 * zod/mini, the catalog's API, does not). Validation is zod's own; the conversion is zod's
 * `toJSONSchema`, in the dialect and direction the SDK asks for.
 */
export type JsonStandardSchema = z.ZodMiniObject & {
  readonly '~standard': z.ZodMiniObject['~standard'] & {
    readonly jsonSchema: {
      input(options: { target: string }): Record<string, unknown>;
      output(options: { target: string }): Record<string, unknown>;
    };
  };
};

type Target = NonNullable<Parameters<typeof z.toJSONSchema>[1]>['target'];
const DIALECTS: Readonly<Record<string, Target>> = { 'draft-2020-12': 'draft-2020-12', 'draft-07': 'draft-07', 'openapi-3.0': 'openapi-3.0' };

/**
 * zod's JSON Schema in the spelling most clients read: a nullable field as `anyOf` with one
 * `type` each (a client that maps schemas onto a one-type dialect, such as Gemini's, drops a
 * type array), and "any other field" as `true` rather than `{}`. The Inspector's `--strict`
 * check asks for both.
 */
function portable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(portable);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]) => {
    if (key === 'additionalProperties' && inner !== null && typeof inner === 'object' && Object.keys(inner).length === 0) return [key, true] as const;
    return [key, portable(inner)] as const;
  });
  const { type, description, ...rest } = Object.fromEntries(entries) as Record<string, unknown>;
  if (Array.isArray(type) && type.length > 1) {
    const described = description === undefined ? {} : { description };
    return { ...described, anyOf: type.map((one) => (one === 'null' ? { type: 'null' } : { ...rest, type: one })) };
  }
  return Object.fromEntries(entries);
}

export function withJsonSchema(schema: z.ZodMiniObject): JsonStandardSchema {
  const convert = (io: 'input' | 'output') => (options: { target: string }) =>
    portable(z.toJSONSchema(schema, { io, target: DIALECTS[options.target] ?? 'draft-2020-12' })) as Record<string, unknown>;
  const standard = { ...schema['~standard'], jsonSchema: { input: convert('input'), output: convert('output') } };
  return Object.assign(Object.create(schema) as z.ZodMiniObject, { '~standard': standard });
}

/** The most a list tool returns unless asked for more, and the most it may be asked for. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;
/** Whatever `limit` says, a result's text stays under this many characters: what one answer may put in a model's context. */
export const MAX_RESULT_CHARS = 100_000;

/**
 * How a list tool is bounded: `limit` (how many items at most), and a filter on names, from the
 * operation's kind: a list of choices filters its items by their label (`name_contains`), a
 * search read team by team reads only the teams whose name matches (`team_contains`), so a
 * narrow question also sends fewer requests. A search read team by team is also `resumable`:
 * it reads only the teams that hold the first `limit` results, and its result's `next_cursor`,
 * passed back as `cursor`, goes on from there (mcp-server/on-call-page.ts).
 */
export interface ToolBounds {
  readonly filter?: { readonly arg: string; readonly on: 'items'; readonly field: string } | { readonly arg: string; readonly on: 'teams' };
  readonly resumable?: true;
}

/** The argument that goes on from where a resumable tool's last result stopped, and the result key that gives it. */
export const CURSOR = 'cursor';
export const NEXT_CURSOR = 'next_cursor';

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly operation: AnyOperation;
  /** Changes data in the service: offered only with --enable-write-tools. */
  readonly writes: boolean;
  /** Asks the person before acting, where the client can (mcp-server/confirm.ts). */
  readonly asksFirst: boolean;
  /** The tool's arguments: each field's schema from its endpoint's shared input schema. */
  readonly inputSchema: JsonStandardSchema;
  /** Always an object (MCP's `outputSchema` must be): a list goes under `resultKey`. */
  readonly outputSchema: JsonStandardSchema;
  /** Where a list's items go in the result, e.g. `on_call_users`; undefined when the result is the record itself. */
  readonly resultKey: string | undefined;
  /** A list that may be long: `limit` and a name filter (undefined for a record, or a search that finds one). */
  readonly bounds: ToolBounds | undefined;
  readonly annotations: ToolAnnotations;
}

/** `On-Call User` → `on_call_users`, `Directory Entry` → `directory_entries`: the key a list is wrapped in. */
export function pluralKey(noun: string): string {
  const words = noun
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const last = words.pop() ?? 'result';
  const plural = /[^aeiou]y$/.test(last) ? `${last.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(last) ? `${last}es` : `${last}s`;
  return [...words, plural].join('_');
}

/**
 * The hints a host reads to decide what to put before the user (MCP spec, server/tools,
 * "Tool annotations"), from the catalog: a search or list only reads, and reading again changes
 * nothing; a create adds and is not safe to repeat; an update, a replace (a create on an
 * endpoint the catalog marks idempotent is a create-or-replace) or a removal may overwrite or
 * delete what is there, and is safe to repeat exactly when the catalog says its endpoint is.
 * Every tool reaches a service outside this process: open world.
 */
export function annotationsOf(operation: AnyOperation, endpoint: Endpoint): ToolAnnotations {
  if (operation.kind !== 'action') return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
  const overwrites = operation.effect !== 'create' || endpoint.idempotent;
  return { readOnlyHint: false, destructiveHint: overwrites, idempotentHint: overwrites && endpoint.idempotent, openWorldHint: true };
}

/** What a model reads about one argument: the field's help (in MCP's words where it has its own), its suggested or allowed values, an example. */
function fieldDescription(field: InputField, words: ToolWords | undefined): string {
  const parts = [words?.fields?.[field.key] ?? withMcpNotes(mcpText(field.help))];
  if (field.choices?.length) {
    const values = field.choices.map((choice) => choice.value).join(', ');
    parts.push(field.customValueAllowed ? `Suggested: ${values}. ${withMcpNotes(CUSTOM_VALUE_NOTE)}` : `One of: ${values}.`);
  }
  if (field.dynamic === 'team') parts.push('A team name as list_teams gives it; letter case does not matter.');
  if (field.example) parts.push(`Example: ${field.example}.`);
  return parts.join(' ');
}

/** The shape of an object schema of the catalog; an endpoint with any other input has no fields to take. */
function shapeOf(schema: z.ZodMiniType): Readonly<Record<string, z.ZodMiniType>> {
  return schema instanceof z.ZodMiniObject ? (schema.shape as Record<string, z.ZodMiniType>) : {};
}

const unwrapOptional = (schema: z.ZodMiniType): z.ZodMiniType => (schema instanceof z.ZodMiniOptional ? (schema._zod.def.innerType as z.ZodMiniType) : schema);

/**
 * The tool's arguments: the operation's fields, each with its endpoint's own schema (so a tool
 * refuses what the endpoint would), required as the operation says (an update's fields are
 * optional where its endpoint requires them: the rest is kept from the record), and described
 * for a model. A field the endpoint does not declare is text.
 */
export function inputSchemaOf(operation: AnyOperation, endpoint: Endpoint, bounds?: ToolBounds): z.ZodMiniObject {
  const shape = shapeOf(endpoint.input);
  const words = toolWords[operation.id];
  const fields = operation.inputFields.map((field) => {
    // No JSON Schema `format` on an e-mail: `email` is RFC 5321's ASCII-only address, which the
    // MCP SDK's client checks, refusing `zoë@exämple.de` that the one address rule takes
    // (shared/schemas/email-address.ts); `idn-email` it does not know, and warns of on every
    // listing. The description says it is an e-mail; the server checks it by the rule.
    const own = unwrapOptional(shape[field.key] ?? z.string()).check(z.meta({ description: fieldDescription(field, words) }));
    return [field.key, field.required ? own : z.optional(own)] as const;
  });
  return z.object({ ...Object.fromEntries(fields), ...boundArguments(bounds) });
}

/**
 * An output field's schema from its declared type (the one every platform's output list is made
 * from), required and never null where the catalog's schema of the answer says so (a documented
 * field), else optional and nullable: an assumed answer is passed on as it came. The catalog's own
 * schemas cannot be used as they are: an id's read-as-text step (a transform) has no JSON Schema.
 */
function outputFieldSchema(field: OutputField, words: ToolWords | undefined, answer?: z.ZodMiniType): z.ZodMiniType {
  const of = (): z.ZodMiniType => {
    switch (field.type) {
      case 'number':
        return z.number();
      case 'boolean':
        return z.boolean();
      case 'array':
        return z.array(field.spec ? fieldsObject(field.spec, words) : z.unknown());
      case 'object':
        return field.spec ? fieldsObject(field.spec, words) : z.looseObject({});
      default:
        return z.string();
    }
  };
  const documented = answer !== undefined && answer._zod.optout !== 'optional' && !z.safeParse(answer, null).success;
  const description = words?.outputs?.[field.key] ?? field.label;
  // No `format` on an e-mail, as for the arguments (inputSchemaOf): the client would refuse an entry of `zoë@exämple.de`.
  return (documented ? of() : z.optional(z.nullable(of()))).check(z.meta({ description }));
}

const fieldsObject = (fields: readonly OutputField[], words: ToolWords | undefined): z.ZodMiniObject =>
  z.looseObject(Object.fromEntries(fields.map((field) => [field.key, outputFieldSchema(field, words)])));

/**
 * One result as it goes out: each output field of the description (the endpoint's fields, the
 * fields a search derives, the team it adds), typed as declared and required as the catalog's
 * schema of the answer (an element of it, for a list) says. Unknown fields are kept, as the
 * client keeps them.
 */
function itemSchemaOf(operation: AnyOperation, endpoint: Endpoint): z.ZodMiniObject {
  const answer = endpoint.output instanceof z.ZodMiniArray ? (endpoint.output._zod.def.element as z.ZodMiniType) : endpoint.output;
  const own = shapeOf(answer);
  const words = toolWords[operation.id];
  return z.looseObject(
    Object.fromEntries(operation.outputFields.map((field) => [field.key, createdField(endpoint, field) ?? outputFieldSchema(field, words, own[field.key])])),
  );
}

/** A list that can grow with the organization is bounded; a search that finds one entry is not. */
export function boundsOf(operation: AnyOperation): ToolBounds | undefined {
  if (operation.kind === 'list') return { filter: { arg: 'name_contains', on: 'items', field: operation.labelField } };
  if (operation.kind === 'search' && operation.teamByTeam) return { filter: { arg: 'team_contains', on: 'teams' }, resumable: true };
  if (operation.kind === 'search' && operation.results === 'each-element') return {};
  return undefined;
}

/** The arguments a bounded tool adds to the operation's own. */
function boundArguments(bounds: ToolBounds | undefined): Record<string, z.ZodMiniType> {
  if (!bounds) return {};
  // The default is the schema's, so hosts show it and the tool's arguments come parsed with it.
  const limit = z._default(
    z
      .int()
      .check(
        z.minimum(1),
        z.maximum(MAX_LIMIT),
        z.describe(
          bounds.resumable
            ? `At most this many results (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT}). Only the teams that hold them are read; when more remain, the result's ${NEXT_CURSOR} gives the next ones.`
            : `At most this many results (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT}). A longer list is cut, and the result says how many there were.`,
        ),
      ),
    DEFAULT_LIMIT,
  );
  if (!bounds.filter) return { limit };
  const what = bounds.filter.on === 'teams' ? 'Only teams whose name contains this text' : 'Only those whose name contains this text';
  const filter = z.optional(z.string().check(z.minLength(1), z.maxLength(200), z.describe(`${what}, ignoring letter case (e.g. "pay" for Payments).`)));
  if (!bounds.resumable) return { [bounds.filter.arg]: filter, limit };
  const cursor = z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(MAX_CURSOR_CHARS),
        z.describe(
          `To go on where the previous result stopped: its ${NEXT_CURSOR}, unchanged, with the same teamname and team_contains. Leave it out to start from the first team.`,
        ),
      ),
  );
  return { [bounds.filter.arg]: filter, limit, [CURSOR]: cursor };
}

/**
 * A create's `id` and `note`, which the client always gives (assumption `created-id`): `id`
 * text, empty where the service gave none, and `note` saying so then, else empty.
 */
function createdField(endpoint: Endpoint, field: OutputField): z.ZodMiniType | undefined {
  if (!endpoint.createsUnless) return undefined;
  if (field.key === 'id') return z.string().check(z.describe(`${field.label}; empty where the service gave no readable id (then \`note\` says so)`));
  if (field.key === 'note') return z.string().check(z.describe('Says so where the service gave no readable id; empty when one came'));
  return undefined;
}

/** Whether the tool's result is a list (wrapped under a key) or one record (an action's answer). */
const isList = (operation: AnyOperation) => operation.kind !== 'action';

/** The key of when a read was made, on every read's result. */
export const AS_OF = 'as_of';

/**
 * A read's result (a list) carries `as_of`: who is on call is true at one instant, and a model
 * that quotes it later, or at a handover, should say when it was read.
 */
function outputSchemaOf(operation: AnyOperation, endpoint: Endpoint, resultKey: string | undefined, bounds: ToolBounds | undefined): z.ZodMiniObject {
  const item = itemSchemaOf(operation, endpoint);
  if (!resultKey) return item;
  const counted: Record<string, z.ZodMiniType> = bounds
    ? {
        total: z
          .number()
          .check(
            z.describe(
              bounds.resumable
                ? `How many were found in the teams this call read, before \`limit\` cut the list: everyone, for a call without ${CURSOR} whose result has no ${NEXT_CURSOR}.`
                : `How many there were in all, before \`limit\` cut the list.`,
            ),
          ),
        note: z.optional(
          z
            .string()
            .check(
              z.describe(
                `Present when the list was cut or found nothing: what was left out and how to ${bounds.resumable ? 'go on or ' : ''}narrow the question.`,
              ),
            ),
        ),
        ...(bounds.resumable ? resumableOutput : {}),
      }
    : {};
  // `format` rather than zod's datetime check: its pattern is a screenful a model would read for nothing.
  const asOf = z.string().check(z.meta({ description: 'When Pagerly was asked (UTC, ISO 8601): the answer holds for that instant.', format: 'date-time' }));
  const shape: Record<string, z.ZodMiniType> = { [resultKey]: z.array(item), [AS_OF]: asOf, ...counted };
  return z.object(shape);
}

/** What a resumable tool's result says of its read: how far it got, and where to go on. */
const resumableOutput: Record<string, z.ZodMiniType> = {
  teams_read: z.number().check(z.describe('Teams read so far, by this call and the ones before it in the same list (teams are read in order of their id).')),
  teams_total: z.number().check(z.describe('Teams to read in all (those teamname or team_contains chose).')),
  [NEXT_CURSOR]: z.optional(
    z.string().check(z.describe(`Present when more people remain: pass it as ${CURSOR}, with the same other arguments, for the next ones.`)),
  ),
};

/** A sentence on what comes back, naming the keys a model reads. */
function returnsSentence(operation: AnyOperation, resultKey: string | undefined, bounds: ToolBounds | undefined): string {
  const keys = operation.outputFields.map((field) => field.key).join(', ');
  if (!resultKey) return `Returns the service's answer: ${keys}.`;
  const empty = operation.kind === 'search' && operation.results === 'single' ? ' (empty when none is found)' : ' (may be empty)';
  const counted = bounds ? `, "total": N${bounds.resumable ? `, "teams_read": N, "teams_total": N, "${NEXT_CURSOR}": "…"` : ''}` : '';
  const cut = !bounds
    ? ''
    : bounds.resumable
      ? ` At most ${DEFAULT_LIMIT} unless limit says otherwise, and only the teams that hold them are read: when more remain, ${NEXT_CURSOR} is set and a note says how to go on (pass it as ${CURSOR}) or narrow it.`
      : ` At most ${DEFAULT_LIMIT} unless limit says otherwise; a cut list has a note saying how to narrow it.`;
  return `Returns {"${resultKey}": [...], "as_of": "<UTC time>"${counted}}${empty}, each with ${keys}.${cut}`;
}

/**
 * What a model reads to choose and call the tool: what it does (the description every platform
 * shows), what it returns, who may use it, and for a write that it changes data.
 */
function descriptionOf(operation: AnyOperation, endpoints: readonly Endpoint[], resultKey: string | undefined, bounds: ToolBounds | undefined): string {
  // A retiring tool is still listed (hosts' allow-lists and prompts name it) and says so first,
  // so a model picks the replacement for anything new.
  const retiring = retiringNote(operation, (id) => {
    const name = mcpName({ id, kind: 'action' });
    return 'tool' in name ? name.tool : id;
  });
  const parts = [
    ...(retiring ? [retiring] : []),
    toolWords[operation.id]?.description ?? withMcpNotes(mcpText(operation.description)),
    returnsSentence(operation, resultKey, bounds),
  ];
  // The descriptions of admin-only operations say so to a no-code user; a model gets it plainly too.
  if (endpoints.some((endpoint) => endpoint.adminOnly)) parts.push('Org admins only: with any other key the service refuses it (a permission error).');
  if (operation.kind === 'action') parts.push('Changes data in Pagerly: confirm with the user before calling it.');
  if (operation.kind === 'action' && operation.irreversible) parts.push(operation.irreversible);
  return parts.join(' ');
}

/** The endpoints an operation calls, from a catalog given (a copy, in tests). */
function endpointsCalled(operation: AnyOperation, catalog: SurfaceSource['endpoints']): Endpoint[] {
  const keys: string[] = [operation.endpoint];
  if (operation.kind === 'action' && operation.keepsOmitted) keys.push(operation.keepsOmitted.read);
  return keys.map((key) => {
    const endpoint = catalog[key];
    if (!endpoint) throw new Error(`operation "${operation.id}" calls "${key}", which the catalog lacks`);
    return endpoint;
  });
}

/** Every tool, in the order of the operations; the hook has none (its entry in the name map says why). */
export function toolDefinitions({ operations, endpoints }: SurfaceSource): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  for (const operation of operations) {
    if (operation.kind === 'hook') continue;
    const name = mcpName(operation);
    if (!('tool' in name)) continue;
    const called = endpointsCalled(operation, endpoints);
    const endpoint = called[0]!;
    const resultKey = isList(operation) ? pluralKey(operation.noun) : undefined;
    const bounds = resultKey ? boundsOf(operation) : undefined;
    tools.push({
      name: name.tool,
      title: name.title,
      description: descriptionOf(operation, called, resultKey, bounds),
      operation,
      writes: operation.kind === 'action',
      asksFirst: operation.kind === 'action' && 'asksFirst' in name && name.asksFirst === true,
      inputSchema: withJsonSchema(inputSchemaOf(operation, endpoint, bounds)),
      outputSchema: withJsonSchema(outputSchemaOf(operation, endpoint, resultKey, bounds)),
      resultKey,
      bounds,
      annotations: annotationsOf(operation, endpoint),
    });
  }
  const names = tools.map((tool) => tool.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`two operations are the MCP tool "${twice}": give one another name in mcp-server/operation-names.ts`);
  return tools;
}
