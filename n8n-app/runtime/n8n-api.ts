import type {
  IDataObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  IN8nHttpFullResponse,
  INodeExecutionData,
  INodeListSearchResult,
  IPollFunctions,
  NodeApiError,
  NodeOperationError,
} from 'n8n-workflow';

/**
 * The part of n8n's node API (package `n8n-workflow`, which n8n provides to community nodes at
 * run time) that the Pagerly nodes use, picked from n8n-workflow's own types: the runtime asks
 * for no more than it calls, so a unit test can hand it a small context, and n8n's real
 * contexts fit. Types only: the runtime is bundled without n8n-workflow, whose error classes
 * the generated node hands in.
 */
export type DataObject = IDataObject;
export type N8nHttpRequest = IHttpRequestOptions;
export type N8nFullResponse = IN8nHttpFullResponse;
export type ExecutionItem = INodeExecutionData;
export type ListSearchResult = INodeListSearchResult;

/** The one request helper every context offers: it adds the credential's `authenticate` block. */
type WithRequests = { readonly helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication'> };

/** What every function context of n8n offers (`FunctionsBase`), as far as the runtime uses it. */
export type N8nBaseContext = Pick<IExecuteFunctions, 'getNode' | 'getCredentials'> & WithRequests;

/** `IExecuteFunctions`: the node's `execute`. */
export type N8nExecuteContext = N8nBaseContext & Pick<IExecuteFunctions, 'getInputData' | 'getNodeParameter' | 'continueOnFail'>;

/** `ILoadOptionsFunctions`: a dropdown's `loadOptions`. */
export type N8nLoadOptionsContext = Pick<ILoadOptionsFunctions, 'getNode' | 'getCredentials'> & WithRequests;

/**
 * `IPollFunctions`: the polling trigger. `getMode()` is `'manual'` for the editor's "Fetch Test
 * Event" and `'trigger'` for the scheduled polls of an active workflow.
 */
export type N8nPollContext = Pick<IPollFunctions, 'getNode' | 'getCredentials' | 'getMode' | 'getNodeParameter' | 'getWorkflowStaticData'> & WithRequests;

/** n8n's error classes, handed in by the generated node (they come from the engine's n8n-workflow). */
export interface N8nErrorClasses {
  readonly NodeApiError: typeof NodeApiError;
  readonly NodeOperationError: typeof NodeOperationError;
}
