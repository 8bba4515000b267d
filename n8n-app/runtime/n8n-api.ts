/**
 * The part of n8n's node API (package `n8n-workflow`, which n8n provides to community nodes
 * at run time) that the Pagerly nodes use, declared structurally so the runtime type-checks
 * and unit-tests without the engine. `npm run n8n:check` compiles the generated nodes against
 * the real n8n-workflow 2.35 types, which proves these declarations fit them; the e2e runs
 * them in the real engine.
 */
/** `IDataObject`: what an item's `json` may hold. */
export type DataObject = { [key: string]: string | number | boolean | object | null | undefined };

/** `IHttpRequestOptions`, the fields this package sends. */
export interface N8nHttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  disableFollowRedirect: true;
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
  httpRequestWithAuthentication(this: N8nBaseContext<unknown>, credentialsType: string, requestOptions: N8nHttpRequest): Promise<unknown>;
}

/**
 * What every function context of n8n offers (`FunctionsBase`). `Node` is n8n's `INode`, passed
 * through untouched to its error classes, so it is a type parameter rather than a copy.
 */
export interface N8nBaseContext<Node = unknown> {
  getNode(): Node;
  getCredentials(type: string, itemIndex?: number): Promise<Record<string, unknown>>;
  helpers: N8nHelpers;
}

/** `INodeExecutionData` (a type, not an interface, so it fits n8n's index signature). */
export type ExecutionItem = {
  json: DataObject;
  pairedItem?: { item: number };
};

/** `IExecuteFunctions`. */
export interface N8nExecuteContext<Node = unknown> extends N8nBaseContext<Node> {
  getInputData(): readonly unknown[];
  getNodeParameter(name: string, itemIndex: number, fallback?: unknown): unknown;
  continueOnFail(): boolean;
}

/** `ILoadOptionsFunctions`. */
export interface N8nLoadOptionsContext<Node = unknown> extends N8nBaseContext<Node> {}

/**
 * `IPollFunctions`: the polling trigger. `getMode()` is `'manual'` for the editor's "Fetch Test
 * Event" and `'trigger'` for the scheduled polls of an active workflow.
 */
export interface N8nPollContext<Node = unknown> extends N8nBaseContext<Node> {
  getMode(): string;
  getNodeParameter(name: string, fallback?: unknown): unknown;
  getWorkflowStaticData(type: 'node'): Record<string, unknown>;
}

/** `INodePropertyOptions`. */
export interface DropdownOption {
  name: string;
  value: string;
}

/** n8n's error classes, handed in by the generated node (they come from the engine's n8n-workflow). */
export interface N8nErrorClasses<Node = unknown> {
  NodeApiError: new (
    node: Node,
    errorResponse: { message: string; code: string },
    options?: { message?: string; description?: string; httpCode?: string; itemIndex?: number },
  ) => Error;
  NodeOperationError: new (node: Node, error: string, options?: { description?: string; itemIndex?: number }) => Error;
}
