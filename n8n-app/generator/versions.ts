import { compareVersions } from '../../shared/operations/retiring.ts';
import type { Operation } from '../../shared/operations/types.ts';

/**
 * The typeVersions of the Pagerly node. A saved workflow keeps the typeVersion its node was
 * added with, and n8n adds new nodes at the newest one: n8n's own nodes stop offering something
 * by showing it only to the versions that had it (`displayOptions.show['@version']`), never by
 * taking it from a saved workflow. So each release that retires some of the node's operations
 * adds one version, from which they are no longer offered; version 1 is the node as first
 * published. With nothing retiring the node stays at version 1, as it was released.
 */
export interface NodeVersions {
  /** Every version, oldest first: `[1]`, or `[1, 2, …]`. */
  readonly versions: readonly number[];
  /** The version new nodes get: the newest. */
  readonly newest: number;
  /** The first version that no longer offers the operation; undefined while it is offered by all. */
  readonly hiddenFrom: (operation: Pick<Operation, 'retiring'>) => number | undefined;
}

/**
 * The releases that retired operations of the node and have since removed them (in a major):
 * the node version each one added must outlive the operation, since workflows made after the
 * retirement were saved at it. When a retired operation is removed, add its `retiring.since`
 * here; `npm run api:check` refuses the removal of a node version until then.
 */
export const ENDED_RETIREMENTS: readonly string[] = [];

export function nodeVersions(operations: readonly Pick<Operation, 'retiring'>[], ended: readonly string[] = ENDED_RETIREMENTS): NodeVersions {
  const retiring = operations.flatMap((operation) => (operation.retiring ? [operation.retiring.since] : []));
  const releases = [...new Set([...ended, ...retiring])].sort(compareVersions);
  const versions = [1, ...releases.map((_, at) => at + 2)];
  return {
    versions,
    newest: versions.at(-1)!,
    hiddenFrom: (operation) => (operation.retiring ? releases.indexOf(operation.retiring.since) + 2 : undefined),
  };
}

/** The versions that offer an operation, in the form `@version` conditions take. */
export function offeredIn(node: NodeVersions, operation: Pick<Operation, 'retiring'>): number[] {
  const from = node.hiddenFrom(operation);
  return node.versions.filter((version) => from === undefined || version < from);
}
