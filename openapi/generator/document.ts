import * as z from 'zod/mini';
import type { BaseName, Endpoint } from '../../shared/catalog/endpoint.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { callsOf } from '../../shared/operations/calls.ts';
import { type HookOperation, inStepWords, type Operation, operationById, type StepVocabulary } from '../../shared/operations/index.ts';
import { INVALID_KEY_TEXT, errorBody } from '../../shared/schemas/error-body.ts';
import { EVENT_ID_HEADER, onCallChangeEvent } from '../../shared/schemas/on-call-change-event.ts';
import { resolveBases } from '../../shared/settings.ts';
import { sentenceWords } from '../../surfaces/id-words.ts';
import type { SurfaceSource } from '../../surfaces/surface.ts';
import type { Recording } from './recordings.ts';

export type Json = Readonly<Record<string, unknown>>;

export interface OpenApiSource extends SurfaceSource {
  /** Where the examples come from: what the service (or the sandbox) answered, by scenario. */
  readonly recordings: readonly Recording[];
  /** The document's version: the package's. */
  readonly version: string;
}

/** The documented bases (assumption `bases`): the rotations base is the API base plus `/pagerly`. */
export const servers: Readonly<Record<BaseName, string>> = resolveBases({});
const serverDescriptions: Readonly<Record<BaseName, string>> = {
  api: 'The API base: incidents, the directory, hooks, the key check.',
  rotations: 'The rotations base (the API base plus /pagerly): teams and who is on call.',
};

const SECURITY_SCHEME = 'ApiKey';
const INVALID_KEY_RESPONSE = 'InvalidApiKey';
const ERROR_SCHEMA = 'Error';
/** The tag of endpoints no operation calls itself (the key check, the hook calls of triggers). */
const UNGROUPED = 'Connection and hooks';

const pascal = (key: string) => key[0]!.toUpperCase() + key.slice(1);
const ref = (kind: 'schemas' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * The JSON Schema of a zod schema, as it is on the wire. A request is sent as the input schema's
 * output (the client sends what it checked: trimmed, phone separators removed); an answer
 * arrives as the output schema's input (before ids are turned into strings). Transforms have no
 * JSON Schema: the side they produce is left open rather than guessed.
 */
export function wireSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

interface ObjectSchema {
  readonly properties: Readonly<Record<string, Record<string, unknown>>>;
  readonly required: readonly string[];
}
const objectParts = (schema: Record<string, unknown>): ObjectSchema => ({
  properties: (schema['properties'] ?? {}) as ObjectSchema['properties'],
  required: (schema['required'] ?? []) as string[],
});

/** The endpoints an operation calls, as plain keys (a catalog copy may hold keys the real one lacks). */
const calls = (op: Operation): readonly string[] => callsOf(op);

/** Text matched literally in a regular expression (braces kept: they are the path template's). */
const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

const pathNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

/** The recorded interactions with this endpoint: same method, and a URL its base and path template match. */
function recordedCalls(endpoint: Endpoint, recordings: readonly Recording[]) {
  const pattern = new RegExp(`^${escapeRegExp(servers[endpoint.base] + endpoint.path).replace(/\{(\w+)\}/g, (_, name: string) => `(?<${name}>[^/]+)`)}$`);
  return recordings.flatMap((recording) =>
    recording.interactions.flatMap((interaction) => {
      const url = new URL(interaction.path, interaction.scope);
      const match = pattern.exec(url.origin + url.pathname);
      // A body that is not JSON (a fault the sandbox injects) is no example of the contract.
      if (!match || interaction.method !== endpoint.method || typeof interaction.response !== 'object') return [];
      return [{ scenario: recording.scenario, interaction, url, pathValues: match.groups ?? {} }];
    }),
  );
}
type RecordedCall = ReturnType<typeof recordedCalls>[number];

/** `{ scenario: { value } }`, a scenario with several calls numbered. */
function examplesOf(calls: readonly RecordedCall[], value: (call: RecordedCall) => unknown): Record<string, { value: unknown }> | undefined {
  if (!calls.length) return undefined;
  const seen = new Map<string, number>();
  return Object.fromEntries(
    calls.map((call) => {
      const count = (seen.get(call.scenario) ?? 0) + 1;
      seen.set(call.scenario, count);
      return [count === 1 ? call.scenario : `${call.scenario}-${count}`, { value: value(call) }];
    }),
  );
}

/** How the document names a connector operation in the descriptions of what it calls: "Create incident". */
export const operationLabel = (op: Operation) => sentenceWords(op.id);
/** The document's words for the steps the shared texts name: the connectors' operations, by label and id. */
export const openApiSteps: StepVocabulary = {
  step: (id) => {
    const op = operationById(id);
    return `the ${operationLabel(op)} operation (\`${op.id}\`)`;
  },
  thisStep: 'the operation',
};

/** What a reader of the document needs to know of the endpoint beyond its shape, from its catalog entry. */
function descriptionOf(endpoint: Endpoint, callers: readonly Operation[]): string {
  const lines = [
    endpoint.documented
      ? "In the service's API reference."
      : `Not in the service's API reference: assumed by these connectors. Where the service lacks it: ${endpoint.withoutIt ?? 'the call fails.'}`,
    endpoint.adminOnly ? 'Org admins only: the key must be an org admin’s.' : 'Any key of the organization.',
    endpoint.idempotent ? 'Safe to send again after a network error or a 5xx.' : 'Not sent again after a network error or a 5xx: it may have applied.',
    {
      documented: 'The answer has the documented shape; one that does not fit is an error.',
      assumed: 'The answer’s shape is assumed; one that does not fit is passed on as it came.',
      'status-only': 'Only the status matters: any 2xx answers it, whatever the body.',
    }[endpoint.outputShape],
    ...(callers.length
      ? [
          `Called by the connectors' operations: ${callers.map((op) => `${operationLabel(op)} (\`${op.id}\`): ${inStepWords(op.description, openApiSteps)}`).join(' ')}`,
        ]
      : []),
    ...(endpoint.assumptions.length ? [`Assumptions: ${endpoint.assumptions.map((id) => `\`${id}\``).join(', ')} (docs/assumptions.md).`] : []),
  ];
  return lines.join('\n\n');
}

/** A write's success: the status is the service's word (assumption `created-id`). */
const WRITE_SUCCESS =
  'Success (the reference shows no status or body): any 2xx means it was done, whatever the body, which may be empty, not JSON or of another shape; the connectors pass it on as it came.';

/** Any answer that is not a JSON object: a write's 2xx may bring one (assumption `created-id`). */
const NOT_A_RECORD = { description: 'Any answer that is not a JSON object: a list, a text, a number or nothing.', not: { type: 'object' } };

/** Where a create's answer may name the new record (assumption `created-id`). */
const LOCATION_HEADER = {
  description: "The new record's address, if the service gives one: when the body names no id, its last path segment is read as the id.",
  schema: { type: 'string' },
};

function operationOf(endpoint: Endpoint, source: OpenApiSource, tags: readonly string[]): Json {
  const recorded = recordedCalls(endpoint, source.recordings);
  const successes = recorded.filter((call) => call.interaction.status >= 200 && call.interaction.status < 300);
  const input = wireSchema(endpoint.input, 'output');
  const { properties, required } = objectParts(input);
  const inPath = pathNames(endpoint.path);
  const hasBody = endpoint.method === 'POST';
  const parameterOf = (name: string, where: 'path' | 'query') => {
    const values = successes.map((call) => (where === 'path' ? call.pathValues[name] : call.url.searchParams.get(name))).filter((value) => value != null);
    return {
      name,
      in: where,
      required: where === 'path' || required.includes(name),
      description: `The input field \`${name}\`.`,
      schema: properties[name] ?? { type: 'string' },
      ...(values.length ? { example: values[0] } : {}),
    };
  };
  const parameters = [
    ...inPath.map((name) => parameterOf(name, 'path')),
    ...(hasBody
      ? []
      : Object.keys(properties)
          .filter((name) => !inPath.includes(name))
          .map((name) => parameterOf(name, 'query'))),
  ];
  const callers = source.operations.filter((op) => calls(op).includes(endpoint.key));
  // The spec shows a success status only with the shapes it documents (200); elsewhere any 2xx is success, as the client reads it.
  const success = endpoint.outputShape === 'documented' ? '200' : '2XX';
  const write = endpoint.successWhateverTheBody === true;
  const successExamples = examplesOf(successes, (call) => call.interaction.response);
  const links = linksFrom(endpoint, source);
  return {
    operationId: endpoint.key,
    summary: endpoint.summary,
    description: descriptionOf(endpoint, callers),
    tags,
    'x-documented': endpoint.documented,
    'x-admin-only': endpoint.adminOnly,
    'x-idempotent': endpoint.idempotent,
    'x-assumptions': endpoint.assumptions,
    ...(endpoint.base === 'api' ? {} : { servers: [{ url: servers[endpoint.base], description: serverDescriptions[endpoint.base] }] }),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('schemas', `${pascal(endpoint.key)}Request`),
                ...(successes.length ? { examples: examplesOf(successes, (call) => call.interaction.body) } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [success]: {
        description: success === '200' ? 'OK' : write ? WRITE_SUCCESS : 'Success (the reference shows no status).',
        ...(endpoint.createsUnless ? { headers: { Location: LOCATION_HEADER } } : {}),
        content: {
          'application/json': {
            // A write's 2xx is done whatever its body (assumption `created-id`): the assumed
            // record, or any body that is not one (a list, text, nothing), not a promise of a shape.
            schema: write ? { anyOf: [ref('schemas', `${pascal(endpoint.key)}Response`), NOT_A_RECORD] } : ref('schemas', `${pascal(endpoint.key)}Response`),
            ...(successExamples ? { examples: successExamples } : {}),
          },
        },
        ...(links.length ? { links: Object.fromEntries(links) } : {}),
      },
      '400': ref('responses', INVALID_KEY_RESPONSE),
    },
  };
}

/**
 * What a created record's answer opens: `POST P` answering a field `name` links to each
 * endpoint at `P/{name}` (a hook's subscribe to its removal), with that field as the parameter.
 */
function linksFrom(endpoint: Endpoint, source: OpenApiSource): [string, Json][] {
  if (endpoint.method !== 'POST') return [];
  const answered = Object.keys(objectParts(wireSchema(endpoint.output, 'input')).properties);
  return Object.values(source.endpoints).flatMap((other) => {
    const name = new RegExp(`^${escapeRegExp(endpoint.path)}/\\{(\\w+)\\}$`).exec(other.path)?.[1];
    if (!name || !answered.includes(name)) return [];
    return [
      [
        other.key,
        { operationId: other.key, parameters: { [name]: `$response.body#/${name}` }, description: `${other.summary}: the \`${name}\` of this answer.` },
      ],
    ];
  });
}

/** The body schema of a POST: the input without its path fields. */
function requestSchema(endpoint: Endpoint): Record<string, unknown> {
  const input = wireSchema(endpoint.input, 'output');
  const { properties, required } = objectParts(input);
  const inPath = pathNames(endpoint.path);
  const kept = Object.entries(properties).filter(([name]) => !inPath.includes(name));
  const stillRequired = required.filter((name) => !inPath.includes(name));
  return { ...input, properties: Object.fromEntries(kept), ...(stillRequired.length ? { required: stillRequired } : {}) };
}

/** A hook trigger as an OpenAPI webhook: what the service POSTs to the subscribed URL. */
function webhookOf(op: HookOperation): Json {
  return {
    post: {
      operationId: op.id,
      summary: operationLabel(op),
      description: `${inStepWords(op.description, openApiSteps)}\n\nDelivered to the URL a subscribe call registered; a failed delivery is sent again with the same event id (assumptions \`hook-payload\`, \`hook-delivery\`).`,
      tags: [op.group],
      'x-documented': false,
      parameters: [
        {
          name: EVENT_ID_HEADER,
          in: 'header',
          required: true,
          description: 'The event id, the same on every attempt to deliver it.',
          schema: { type: 'string' },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'OnCallChangeEvent') } } },
      responses: {
        '2XX': { description: 'Received.' },
        '410': { description: 'Gone: the sender removes the subscription and delivers nothing more to it.' },
      },
      security: [],
    },
  };
}

/** The OpenAPI 3.1 document of the catalog: one operation per endpoint, named by its catalog key. */
export function openApiDocument(source: OpenApiSource): Json {
  const endpoints = Object.values(source.endpoints);
  const groupOf = (endpoint: Endpoint) =>
    source.operations.find((op): op is Extract<Operation, { group: string }> => 'group' in op && calls(op).includes(endpoint.key))?.group ?? UNGROUPED;
  const hooks = source.operations.filter((op): op is HookOperation => op.kind === 'hook');
  const tagNames = [...new Set([...endpoints.map(groupOf), ...hooks.map((op) => op.group)])];

  const paths: Record<string, Record<string, Json>> = {};
  for (const endpoint of endpoints) {
    const item = paths[endpoint.path] ?? {};
    paths[endpoint.path] = item;
    const method = endpoint.method.toLowerCase();
    if (item[method]) throw new Error(`Two endpoints are ${endpoint.method} ${endpoint.path}: an OpenAPI path has one operation per method`);
    item[method] = operationOf(endpoint, source, [groupOf(endpoint)]);
  }

  const schemas: Record<string, unknown> = {
    [ERROR_SCHEMA]: {
      description: 'The documented error body: an array of one object whose `Error` says what went wrong.',
      type: 'array',
      minItems: 1,
      items: { type: 'object', properties: { Error: { type: 'string' } }, required: ['Error'] },
    },
  };
  for (const endpoint of endpoints) {
    if (endpoint.method === 'POST') schemas[`${pascal(endpoint.key)}Request`] = requestSchema(endpoint);
    schemas[`${pascal(endpoint.key)}Response`] = wireSchema(endpoint.output, 'input');
  }
  if (hooks.length) schemas['OnCallChangeEvent'] = wireSchema(onCallChangeEvent, 'input');

  return {
    openapi: '3.1.0',
    info: {
      title: 'Pagerly Automation API',
      version: source.version,
      summary: 'The key-authenticated endpoints of Pagerly, as these connectors call them.',
      description:
        "Generated from the connectors' endpoint catalog (`shared/catalog/endpoints.ts`) by `npm run build`. `x-documented` says whether the service's API reference shows an endpoint; what the reference leaves open is the connectors' assumption, named in each description (docs/assumptions.md). Schemas describe the JSON on the wire; examples are recorded answers (test/recordings/).",
      contact: { name: 'Pagerly connectors maintainers' },
      // The licence of every package this repository publishes (surfaces/license.ts, the root LICENSE).
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: servers.api, description: serverDescriptions.api }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: tagNames.map((name) => ({
      name,
      description:
        name === UNGROUPED
          ? 'Endpoints no operation calls itself: every connection’s key check and the triggers’ hook calls.'
          : `The ${name.toLowerCase()} operations.`,
    })),
    paths,
    ...(hooks.length ? { webhooks: Object.fromEntries(hooks.map((op) => [op.id, webhookOf(op)])) } : {}),
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'An API key an org admin generated in the dashboard; it acts as the person who created it.',
        },
      },
      responses: {
        [INVALID_KEY_RESPONSE]: {
          description: `The API key is not valid (documented; any other 400 is invalid input, assumption \`auth-error\`).`,
          content: { 'application/json': { schema: ref('schemas', ERROR_SCHEMA), example: errorBody(INVALID_KEY_TEXT) } },
        },
      },
      schemas,
    },
  };
}
