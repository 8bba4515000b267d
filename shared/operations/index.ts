import { createIncident } from './create-incident.ts';
import { changeDirectoryRole, removeDirectoryEntry, updateDirectoryPhone, upsertDirectoryEntry } from './directory-actions.ts';
import { onCallChanged } from './on-call-changed.ts';
import { findDirectoryEntry, findOnCallUsers } from './searches.ts';
import { teamList } from './team-list.ts';
import type { Operation } from './types.ts';

export { connection } from './connection.ts';
export * from './item-shape.ts';
export * from './on-call-change-item.ts';
export * from './types.ts';
export { createIncident, changeDirectoryRole, removeDirectoryEntry, updateDirectoryPhone, upsertDirectoryEntry, onCallChanged, findDirectoryEntry, findOnCallUsers, teamList };

/** Every connector operation, in the order the apps list them. */
export const operations: readonly Operation[] = [
  teamList,
  onCallChanged,
  createIncident,
  upsertDirectoryEntry,
  updateDirectoryPhone,
  changeDirectoryRole,
  removeDirectoryEntry,
  findOnCallUsers,
  findDirectoryEntry,
];
