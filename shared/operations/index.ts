import { createIncident, updateIncident } from './create-incident.ts';
import { changeDirectoryRole, createDirectoryEntry, removeDirectoryEntry, updateDirectoryEntry, updateDirectoryPhone } from './directory-actions.ts';
import { onCallChanged } from './on-call-changed.ts';
import { findDirectoryEntry, findOnCallUsers } from './searches.ts';
import { teamList } from './team-list.ts';
import type { Operation } from './types.ts';

export { connection } from './connection.ts';
export * from './step-mentions.ts';
export * from './item-shape.ts';
export * from './on-call-change-item.ts';
export * from './types.ts';
export {
  createIncident,
  updateIncident,
  changeDirectoryRole,
  createDirectoryEntry,
  removeDirectoryEntry,
  updateDirectoryEntry,
  updateDirectoryPhone,
  onCallChanged,
  findDirectoryEntry,
  findOnCallUsers,
  teamList,
};

/** Every connector operation, in the order the apps list them. */
export const operations: readonly Operation[] = [
  teamList,
  onCallChanged,
  createIncident,
  updateIncident,
  createDirectoryEntry,
  updateDirectoryEntry,
  updateDirectoryPhone,
  changeDirectoryRole,
  removeDirectoryEntry,
  findOnCallUsers,
  findDirectoryEntry,
];

/** The operation with this id; a shared text that names another (`stepOf`) must name a real one. */
export function operationById(id: string): Operation {
  const operation = operations.find((op) => op.id === id);
  if (!operation) throw new Error(`No operation "${id}": a shared text names the step of an operation that does not exist.`);
  return operation;
}
