import { operations } from '../../shared/operations/index.ts';
import type { ActionOperation, HookOperation, SearchOperation } from '../../shared/operations/types.ts';

/** What the Pagerly node offers: every action and search of the shared descriptions. */
export type NodeOperation = ActionOperation | SearchOperation;

export const nodeOperations: readonly NodeOperation[] = operations.filter((op): op is NodeOperation => op.kind === 'action' || op.kind === 'search');

/** n8n groups operations under resources: the operation's noun, as a parameter value. */
export const resourceValue = (noun: string) =>
  noun
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');

/** The trigger node serves the one hook operation; a second one would need an event selector first. */
export function hookOperation(): HookOperation {
  const hooks = operations.filter((op): op is HookOperation => op.kind === 'hook');
  if (hooks.length !== 1)
    throw new Error(
      `The n8n trigger serves exactly one hook operation; shared/operations has ${hooks.length}. Add an event selector to the n8n generator first.`,
    );
  return hooks[0]!;
}

export function nodeOperation(resource: unknown, key: unknown): NodeOperation {
  const operation = nodeOperations.find((op) => op.key === key && resourceValue(op.noun) === resource);
  if (!operation) throw new Error(`Unknown resource and operation "${String(resource)}" / "${String(key)}": pick them again in the node.`);
  return operation;
}
