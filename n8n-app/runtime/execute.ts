import { actionResult } from '../../shared/operations/action-result.ts';
import { runSearch } from '../../shared/operations/search-results.ts';
import type { InputField } from '../../shared/operations/types.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { pagerlyFor } from './client.ts';
import { toN8nError } from './errors.ts';
import type { DataObject, ExecutionItem, N8nErrorClasses, N8nExecuteContext } from './n8n-api.ts';
import { nodeOperation, type NodeOperation } from './operations.ts';

/** The endpoint input from the node's parameters: only the declared fields, an empty one left out. */
function inputOf(context: N8nExecuteContext, fields: readonly InputField[], itemIndex: number): Record<string, unknown> {
  return endpointInput(fields, Object.fromEntries(fields.map((field) => [field.key, context.getNodeParameter(field.key, itemIndex, '')])));
}

async function run(context: N8nExecuteContext, operation: NodeOperation, itemIndex: number): Promise<DataObject[]> {
  const input = inputOf(context, operation.inputFields, itemIndex);
  const pagerly = await pagerlyFor(context, itemIndex);
  if (operation.kind === 'search') return (await runSearch(operation, pagerly, input)) as DataObject[];
  return [(await actionResult(operation, input, pagerly)) as DataObject];
}

/**
 * The Pagerly node's `execute`: each input item runs the chosen operation once; a search gives
 * one item per result. With "Continue On Fail" a failed item becomes `{error}` and the others go on.
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
