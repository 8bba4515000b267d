import { credentialDescription } from '../../n8n-app/generator/descriptions.ts';
import { BASE_URL_FIELD, CREDENTIAL, POLL_STATE_KEY, ROTATIONS_BASE_URL_FIELD } from '../../n8n-app/names.ts';
import { createRequire } from 'node:module';
import type { IDataObject, INode } from 'n8n-workflow';
import type { N8nBaseContext, N8nErrorClasses, N8nExecuteContext, N8nFullResponse, N8nHttpRequest, N8nPollContext } from '../../n8n-app/runtime/n8n-api.ts';
import { connection } from '../../shared/operations/connection.ts';

/**
 * n8n's function contexts as the engine builds them, for unit tests: parameters and the
 * credential from plain objects, and `httpRequestWithAuthentication` doing what n8n does with
 * it: apply the credential's generated `authenticate` block, then send the request for real
 * (fetch, over loopback) without throwing for a status, following redirects unless told not to.
 * The error classes are n8n-workflow's own. The e2e runs the same code in n8n itself.
 */
// n8n-workflow's ESM build cannot be imported by Node directly (extensionless imports); its
// CommonJS build is what n8n itself loads.
const n8nWorkflow = createRequire(import.meta.url)('n8n-workflow') as typeof import('n8n-workflow');
export const { NodeApiError, NodeOperationError } = n8nWorkflow;
export const classes: N8nErrorClasses = { NodeApiError, NodeOperationError };
export type { NodeApiError as NodeApiErrorType, NodeOperationError as NodeOperationErrorType } from 'n8n-workflow';

export const node: INode = { id: 'node-1', name: 'Pagerly', type: 'CUSTOM.pagerly', typeVersion: 1, position: [0, 0], parameters: {} };

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

/** Text values of a request option n8n types as any data (the runtime sends text only). */
const texts = (values: object | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, String(value)]));

/** A canned answer for a request, or undefined to send it for real. */
export type Answer = (options: N8nHttpRequest) => N8nFullResponse | undefined;

/**
 * `timeoutCapMs`: the longest the stand-in waits for an answer, in place of the `timeout` the
 * runtime asks for (25 s), so a test can meet n8n's time-out without waiting for it.
 */
function base(credential: Record<string, unknown>, sent: Sent[], options: { answer?: Answer; timeoutCapMs?: number } = {}): N8nBaseContext {
  const authenticate = credentialDescription().authenticate;
  return {
    getNode: () => node,
    // n8n's getCredentials is generic in what it decrypts; a test's credential is plain data.
    getCredentials: (async (type: string) => {
      if (type !== CREDENTIAL.name) throw new Error(`unknown credential type ${type}`);
      return credential;
    }) as N8nBaseContext['getCredentials'],
    helpers: {
      async httpRequestWithAuthentication(type: string, request: N8nHttpRequest) {
        if (type !== CREDENTIAL.name) throw new Error(`unknown credential type ${type}`);
        const headers = texts(request.headers);
        for (const [name, value] of Object.entries(authenticate.properties.headers)) headers[name] = resolve(value, credential);
        const query = texts(request.qs);
        const url = `${request.url}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
        const body = typeof request.body === 'string' ? request.body : undefined;
        const method = request.method ?? 'GET';
        sent.push({ url, method, headers, body });
        const canned = options.answer?.(request);
        if (canned) return canned;
        try {
          const response = await fetch(url, {
            method,
            headers,
            body,
            signal: AbortSignal.timeout(Math.min(request.timeout ?? 25_000, options.timeoutCapMs ?? Number.POSITIVE_INFINITY)),
            // n8n follows redirects (keeping X-APIKEY) unless told not to.
            redirect: request.disableFollowRedirect ? 'manual' : 'follow',
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
  const context: N8nExecuteContext = {
    ...base(credential, sent, options.timeoutCapMs === undefined ? {} : { timeoutCapMs: options.timeoutCapMs }),
    getInputData: () => itemParameters.map(() => ({ json: {} })),
    // n8n's overloads narrow the type by parameter name; a test's plain lookup stands for them all.
    getNodeParameter: ((name: string, itemIndex: number, fallback?: unknown) =>
      itemParameters[itemIndex]?.[name] ?? fallback) as N8nExecuteContext['getNodeParameter'],
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
  options: { mode?: 'trigger' | 'manual'; staticData?: IDataObject; answer?: Answer } = {},
) {
  const sent: Sent[] = [];
  const staticData: IDataObject = options.staticData ?? {};
  const context: N8nPollContext = {
    ...base(credential, sent, options.answer ? { answer: options.answer } : {}),
    getMode: () => options.mode ?? 'trigger',
    getNodeParameter: ((name: string, fallback?: unknown) => parameters[name] ?? fallback) as N8nPollContext['getNodeParameter'],
    getWorkflowStaticData: () => staticData,
  };
  return { context, sent, staticData, stored: () => staticData[POLL_STATE_KEY] };
}
