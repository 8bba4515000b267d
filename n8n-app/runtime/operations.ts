import { operations } from '../../shared/operations/index.ts';
import type { ActionOperation, HookOperation, Operation, SearchOperation } from '../../shared/operations/types.ts';
import { n8nNodeName } from '../operation-names.ts';

/** What the Pagerly node offers: every action and search of the shared descriptions. */
export type NodeOperation = ActionOperation | SearchOperation;

export const nodeOperationsOf = (all: readonly Operation[]): NodeOperation[] =>
  all.filter((op): op is NodeOperation => op.kind === 'action' || op.kind === 'search');

export const nodeOperations: readonly NodeOperation[] = nodeOperationsOf(operations);

/** The trigger node serves the one hook operation; a second one would need an event selector first. */
export function hookOperation(all: readonly Operation[] = operations): HookOperation {
  const hooks = all.filter((op): op is HookOperation => op.kind === 'hook');
  if (hooks.length !== 1)
    throw new Error(
      `The n8n trigger serves exactly one hook operation; shared/operations has ${hooks.length}. Add an event selector to the n8n generator first.`,
    );
  return hooks[0]!;
}

export function nodeOperation(resource: unknown, key: unknown): NodeOperation {
  const operation = nodeOperations.find((op) => {
    const name = n8nNodeName(op);
    return name.operation === key && name.resource === resource;
  });
  if (!operation) throw new Error(`Unknown resource and operation "${String(resource)}" / "${String(key)}": pick them again in the node.`);
  return operation;
}
