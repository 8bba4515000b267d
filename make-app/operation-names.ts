import type { Operation, OperationId } from '../shared/operations/types.ts';
import { sentenceWords } from '../surfaces/id-words.ts';

/**
 * How the Make app names an operation: its module (or RPC) name, camelCase, and its label,
 * sentence case and verb first (Best practices › Names, labels & descriptions).
 */
export interface MakeName {
  readonly name: string;
  readonly label: string;
}

/**
 * Public contract: a module name is stored in every scenario that uses it, so renaming one breaks
 * users' scenarios. `satisfies` makes a missing or extra operation a type error.
 */
export const makeNames = {
  listTeams: { name: 'listTeams', label: 'List teams' },
  onCallChanged: { name: 'watchOnCallChanges', label: 'Watch on-call changes' },
  createIncident: { name: 'createIncident', label: 'Create an incident' },
  updateIncident: { name: 'updateIncident', label: 'Update an incident' },
  createDirectoryEntry: { name: 'createDirectoryEntry', label: 'Create a directory entry' },
  updateDirectoryEntry: { name: 'updateDirectoryEntry', label: 'Update a directory entry' },
  updateDirectoryPhone: { name: 'updateDirectoryPhone', label: 'Update a phone number' },
  changeDirectoryRole: { name: 'changeDirectoryRole', label: 'Change a role' },
  removeDirectoryEntry: { name: 'removeDirectoryEntry', label: 'Remove a directory entry' },
  getOnCallUsers: { name: 'listOnCallUsers', label: 'Search on-call users' },
  getDirectoryEntry: { name: 'getDirectoryEntry', label: 'Get a directory entry' },
} as const satisfies Record<OperationId, MakeName>;

/**
 * An operation's Make names: its entry, or for a description outside the shipped list (which the
 * type check lets through without one) the convention: the id itself, its words in sentence case.
 */
export function makeName(operation: Pick<Operation, 'id'>): MakeName {
  return Object.hasOwn(makeNames, operation.id) ? makeNames[operation.id] : { name: operation.id, label: sentenceWords(operation.id) };
}
