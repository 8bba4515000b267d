/**
 * The part of n8n's node API (package `n8n-workflow`, which n8n provides to community nodes
 * at run time) that the Pagerly nodes use, declared structurally so the runtime type-checks
 * and unit-tests without the engine. `npm run n8n:check` compiles the generated nodes against
 * the real n8n-workflow 2.35 types, which proves these declarations fit them; the e2e runs
 * them in the real engine.
 */
export type JsonObject = { [key: string]: unknown };

export interface NodeRef {
  readonly name: string;
  readonly type: string;
}

/** `IHttpRequestOptions`, the fields this package sends. */
export interface N8nHttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  qs?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  returnFullResponse: true;
  ignoreHttpStatusErrors: true;
  json: false;
  encoding: 'text';
  timeout: number;
}

export interface N8nFullResponse {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  statusCode: number;
}

export interface N8nHelpers {
  httpRequestWithAuthentication(this: N8nBaseContext, credentialsType: string, requestOptions: N8nHttpRequest): Promise<unknown>;
}

/** What every function context of n8n offers (`FunctionsBase`). */
export interface N8nBaseContext {
  getNode(): NodeRef;
  getCredentials(type: string, itemIndex?: number): Promise<Record<string, unknown>>;
  helpers: N8nHelpers;
}

export interface ExecutionItem {
  json: JsonObject;
  pairedItem?: { item: number };
  error?: unknown;
}

/** `IExecuteFunctions`. */
export interface N8nExecuteContext extends N8nBaseContext {
  getInputData(): ExecutionItem[];
  getNodeParameter(name: string, itemIndex: number, fallback?: unknown): unknown;
  continueOnFail(): boolean;
}

/** `ILoadOptionsFunctions`. */
export interface N8nLoadOptionsContext extends N8nBaseContext {}

/** `IHookFunctions`: the trigger's webhookMethods. */
export interface N8nHookContext extends N8nBaseContext {
  getNodeWebhookUrl(name: 'default'): string | undefined;
  getNodeParameter(name: string, fallback?: unknown): unknown;
  getWorkflowStaticData(type: 'node'): Record<string, unknown>;
}

/** `IWebhookFunctions`: a delivery to the trigger's webhook. */
export interface N8nWebhookContext {
  getNode(): NodeRef;
  getBodyData(): unknown;
  getHeaderData(): Record<string, unknown>;
  getNodeParameter(name: string, fallback?: unknown): unknown;
}

/** `INodePropertyOptions`. */
export interface DropdownOption {
  name: string;
  value: string;
}

/** n8n's error classes, handed in by the generated node (they come from the engine's n8n-workflow). */
export interface N8nErrorClasses {
  NodeApiError: new (node: NodeRef, errorResponse: JsonObject, options?: { message?: string; description?: string; httpCode?: string; itemIndex?: number }) => Error;
  NodeOperationError: new (node: NodeRef, error: Error | string, options?: { description?: string; itemIndex?: number }) => Error;
}
