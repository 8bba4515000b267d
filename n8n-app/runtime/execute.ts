import { actionResult } from '../../shared/operations/action-result.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { runSearch } from '../../shared/operations/search-results.ts';
import { operationSummaries } from '../../shared/operations/summaries.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { DEFAULT_LIMIT, fieldValue, LIMIT, parameterPath, RETURN_ALL, returnsMany } from '../parameters.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { DataObject, ExecutionItem, N8nErrorClasses, N8nExecuteContext } from './n8n-api.ts';
import { nodeOperation, type NodeOperation } from './operations.ts';

/**
 * What a delete outputs in n8n: one item `{deleted: true}` (n8n's UX guidelines, "Deleting
 * operations output": https://docs.n8n.io/integrations/creating-nodes/build/reference/ux-guidelines/),
 * also when the entry was already gone, which the shared description counts as done.
 */
export const DELETED = { deleted: true } as const;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The node's parameters of one operation as plain field values: a required field is its own
 * parameter, an optional one a key of the operation's collection (absent when not added), and a
 * team's resource locator gives its value.
 */
export function fieldValues(context: Pick<N8nExecuteContext, 'getNodeParameter'>, operation: Operation, itemIndex: number): Record<string, unknown> {
  const collections = new Map<string, Record<string, unknown>>();
  const values: Record<string, unknown> = {};
  for (const field of operation.inputFields) {
    const [name, key] = parameterPath(operation, field);
    if (key === undefined) {
      values[field.key] = fieldValue(context.getNodeParameter(name!, itemIndex, ''));
      continue;
    }
    if (!collections.has(name!)) {
      const collection = context.getNodeParameter(name!, itemIndex, {});
      collections.set(name!, isObject(collection) ? collection : {});
    }
    values[field.key] = fieldValue(collections.get(name!)![key]);
  }
  return values;
}

async function run(context: N8nExecuteContext, operation: NodeOperation, itemIndex: number): Promise<DataObject[]> {
  const input = endpointInput(operation.inputFields, fieldValues(context, operation, itemIndex));
  const pagerly = await pagerlyFor(context, itemIndex, operationSummaries(operation));
  if (operation.kind === 'search') {
    if (!returnsMany(operation) || context.getNodeParameter(RETURN_ALL, itemIndex, false) === true)
      return (await runSearch(operation, pagerly, input)) as DataObject[];
    const asked = Number(context.getNodeParameter(LIMIT, itemIndex, DEFAULT_LIMIT));
    const limit = Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_LIMIT;
    // Only the teams that can hold the first `limit` results are read: the same items, fewer requests.
    const results = (await runSearch(operation, pagerly, input, { enough: limit })) as DataObject[];
    return results.slice(0, limit);
  }
  const result = (await actionResult(operation, input, pagerly)) as DataObject;
  return [operation.effect === 'delete' ? { ...DELETED } : result];
}

/**
 * The Pagerly node's `execute`: each input item runs the chosen operation once; a search gives
 * one item per result, each paired with the input item it came from. With "Continue On Fail"
 * (n8n's `continueOnFail()`) a failed item becomes `{error}`, paired too, and the others go on.
 */
export async function executePagerly(context: N8nExecuteContext, classes: N8nErrorClasses): Promise<ExecutionItem[][]> {
  const output: ExecutionItem[] = [];
  const items = context.getInputData();
  for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
    try {
      const operation = nodeOperation(context.getNodeParameter('resource', itemIndex), context.getNodeParameter('operation', itemIndex));
      for (const json of await run(context, operation, itemIndex)) output.push({ json, pairedItem: { item: itemIndex } });
    } catch (error) {
      const failure = toN8nError(error, context.getNode(), classes, itemIndex);
      if (!context.continueOnFail()) throw failure;
      output.push({ json: { error: failure.message }, pairedItem: { item: itemIndex } });
    }
  }
  return [output];
}

/** The keys an action's item holds in n8n: `deleted` for a delete, else the shared output fields. */
export const outputKeys = (operation: Operation): string[] =>
  operation.kind === 'action' && operation.effect === 'delete' ? Object.keys(DELETED) : operation.outputFields.map((field) => field.key);
