import { credentialDescription } from '../../n8n-app/generator/descriptions.ts';
import { BASE_URL_FIELD, CREDENTIAL, POLL_STATE_KEY, ROTATIONS_BASE_URL_FIELD } from '../../n8n-app/names.ts';
import type { N8nErrorClasses, N8nExecuteContext, N8nHttpRequest, N8nPollContext } from '../../n8n-app/runtime/n8n-api.ts';
import { connection } from '../../shared/operations/connection.ts';

/**
 * n8n's function contexts as the engine builds them, for unit tests: parameters and the
 * credential from plain objects, and `httpRequestWithAuthentication` doing what n8n does with
 * it: apply the credential's generated `authenticate` block, then send the request for real
 * (fetch, over loopback) without throwing for a status, following redirects unless told not to. The e2e runs the same code in n8n itself.
 */
export interface FakeNode {
  name: string;
  type: string;
}
export const node: FakeNode = { name: 'Pagerly', type: 'CUSTOM.pagerly' };

/** n8n-workflow's error classes as they behave for these tests: the node, message, options kept. */
export class NodeApiError extends Error {
  override name = 'NodeApiError';
  readonly httpCode: string | null;
  readonly description: string | undefined;
  readonly itemIndex: number | undefined;
  readonly node: FakeNode;
  readonly errorResponse: { message: string; code: string };
  constructor(
    node: FakeNode,
    errorResponse: { message: string; code: string },
    options: { message?: string; description?: string; httpCode?: string; itemIndex?: number } = {},
  ) {
    super(options.message ?? errorResponse.message);
    this.node = node;
    this.errorResponse = errorResponse;
    this.httpCode = options.httpCode ?? null;
    this.description = options.description;
    this.itemIndex = options.itemIndex;
  }
}
export class NodeOperationError extends Error {
  override name = 'NodeOperationError';
  readonly description: string | undefined;
  readonly itemIndex: number | undefined;
  readonly node: FakeNode;
  constructor(node: FakeNode, message: string, options: { description?: string; itemIndex?: number } = {}) {
    super(message);
    this.node = node;
    this.description = options.description;
    this.itemIndex = options.itemIndex;
  }
}
export const classes: N8nErrorClasses<FakeNode> = { NodeApiError, NodeOperationError };

export interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What n8n's `authenticate` expression `={{$credentials.apiKey}}` resolves to. */
function resolve(expression: string, credential: Record<string, unknown>): string {
  return expression.replace(/^=\{\{\$credentials\.(\w+)\}\}$/, (_, field: string) => String(credential[field] ?? ''));
}

export function credentialFor(apiKey: string, baseUrl: string): Record<string, unknown> {
  return { [connection.apiKeyField.key]: apiKey, [BASE_URL_FIELD]: baseUrl, [ROTATIONS_BASE_URL_FIELD]: '' };
}

/**
 * `timeoutCapMs`: the longest the stand-in waits for an answer, in place of the `timeout` the
 * runtime asks for (25 s), so a test can meet n8n's time-out without waiting for it.
 */
function base(credential: Record<string, unknown>, sent: Sent[], timeoutCapMs?: number) {
  const authenticate = credentialDescription().authenticate;
  return {
    getNode: () => node,
    getCredentials: async (type: string) => {
      if (type !== CREDENTIAL.name) throw new Error(`unknown credential type ${type}`);
      return credential;
    },
    helpers: {
      async httpRequestWithAuthentication(this: unknown, type: string, options: N8nHttpRequest) {
        if (type !== CREDENTIAL.name) throw new Error(`unknown credential type ${type}`);
        const headers = { ...options.headers };
        for (const [name, value] of Object.entries(authenticate.properties.headers)) headers[name] = resolve(value, credential);
        const url = `${options.url}${options.qs && Object.keys(options.qs).length ? `?${new URLSearchParams(options.qs)}` : ''}`;
        sent.push({ url, method: options.method, headers, body: options.body });
        try {
          const response = await fetch(url, {
            method: options.method,
            headers,
            body: options.body,
            signal: AbortSignal.timeout(Math.min(options.timeout, timeoutCapMs ?? Number.POSITIVE_INFINITY)),
            // n8n follows redirects (keeping X-APIKEY) unless told not to.
            redirect: options.disableFollowRedirect ? 'manual' : 'follow',
          });
          // n8n's HTTP library reads the whole body before it answers: a body cut off fails the request.
          return { body: await response.text(), headers: Object.fromEntries(response.headers), statusCode: response.status };
        } catch (error) {
          // As n8n does: the HTTP library's error (with the request's headers) inside a NodeApiError;
          // its time-out is axios's, ECONNABORTED.
          const code = (error as { name?: string }).name === 'TimeoutError' ? 'ECONNABORTED' : (error as { cause?: { code?: string } }).cause?.code;
          const cause = Object.assign(new Error('request failed'), { code, config: { headers } });
          throw Object.assign(new Error('The connection cannot be established'), { name: 'NodeApiError', cause });
        }
      },
    },
  };
}

export function executeContext(
  credential: Record<string, unknown>,
  itemParameters: Record<string, unknown>[],
  options: { continueOnFail?: boolean; timeoutCapMs?: number } = {},
) {
  const sent: Sent[] = [];
  const context: N8nExecuteContext<FakeNode> = {
    ...base(credential, sent, options.timeoutCapMs),
    getInputData: () => itemParameters.map(() => ({ json: {} })),
    getNodeParameter: (name, itemIndex, fallback) => itemParameters[itemIndex]?.[name] ?? fallback,
    continueOnFail: () => options.continueOnFail ?? false,
  };
  return { context, sent };
}

/**
 * The polling trigger's context: its parameters, the workflow's static data (kept across polls
 * when the same object is handed in, as n8n keeps it for an active workflow) and the mode:
 * `'trigger'` for a scheduled poll, `'manual'` for "Fetch Test Event".
 */
export function pollContext(
  credential: Record<string, unknown>,
  parameters: Record<string, unknown> = {},
  options: { mode?: 'trigger' | 'manual'; staticData?: Record<string, unknown> } = {},
) {
  const sent: Sent[] = [];
  const staticData = options.staticData ?? {};
  const context: N8nPollContext<FakeNode> = {
    ...base(credential, sent),
    getMode: () => options.mode ?? 'trigger',
    getNodeParameter: (name, fallback) => parameters[name] ?? fallback,
    getWorkflowStaticData: () => staticData,
  };
  return { context, sent, staticData, stored: () => staticData[POLL_STATE_KEY] };
}
