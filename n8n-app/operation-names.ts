import type { Operation, OperationId } from '../shared/operations/types.ts';
import { snakeCase, titleWords } from '../surfaces/id-words.ts';
import { TEAM_OPTIONS_METHOD, TRIGGER_NODE } from './names.ts';

/** An action or search: an operation of the Pagerly node, chosen by resource and operation value. */
export interface N8nNodeOperationName {
  readonly resource: string;
  readonly operation: string;
  /** The operation's name in the node's dropdown (title case, as n8n's lint asks). */
  readonly label: string;
}
/** The hook: the trigger node, with its label as the node's subtitle. */
export interface N8nTriggerName {
  readonly trigger: string;
  readonly label: string;
}
/** The dropdown source: the node's `loadOptions` method. */
export interface N8nOptionsName {
  readonly loadOptionsMethod: string;
}
export type N8nName = N8nNodeOperationName | N8nTriggerName | N8nOptionsName;

/**
 * Public contract: resource and operation values are stored in every workflow that uses them,
 * so renaming one breaks users' workflows. `satisfies` makes a missing or extra operation a type error.
 */
export const n8nNames = {
  listTeams: { loadOptionsMethod: TEAM_OPTIONS_METHOD },
  onCallChanged: { trigger: TRIGGER_NODE.name, label: 'On-Call Changed' },
  createIncident: { resource: 'incident', operation: 'create_incident', label: 'Create Incident' },
  updateIncident: { resource: 'incident', operation: 'update_incident', label: 'Update Incident' },
  createDirectoryEntry: { resource: 'directoryEntry', operation: 'create_directory_entry', label: 'Create Directory Entry' },
  updateDirectoryEntry: { resource: 'directoryEntry', operation: 'update_directory_entry', label: 'Update Directory Entry' },
  updateDirectoryPhone: { resource: 'phoneNumber', operation: 'update_directory_phone', label: 'Update Phone Number' },
  changeDirectoryRole: { resource: 'role', operation: 'change_directory_role', label: 'Change Role' },
  removeDirectoryEntry: { resource: 'directoryEntry', operation: 'remove_directory_entry', label: 'Remove Directory Entry' },
  getOnCallUsers: { resource: 'onCallUser', operation: 'find_on_call_users', label: 'Find Who Is on Call' },
  getDirectoryEntry: { resource: 'directoryEntry', operation: 'find_directory_entry', label: 'Find Directory Entry' },
} as const satisfies Record<OperationId, N8nName>;

/** A noun as a parameter value: `On-Call User` → `onCallUser`. */
export const resourceValue = (noun: string) =>
  noun
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');

/**
 * An operation's n8n names: its entry, or for a description outside the shipped list (which the
 * type check lets through without one) the convention: resource from the noun, snake_case
 * operation value, title-case label.
 */
export function n8nName(operation: Pick<Operation, 'id' | 'kind' | 'noun'>): N8nName {
  if (Object.hasOwn(n8nNames, operation.id)) return n8nNames[operation.id];
  if (operation.kind === 'list') return { loadOptionsMethod: TEAM_OPTIONS_METHOD };
  if (operation.kind === 'hook') return { trigger: TRIGGER_NODE.name, label: titleWords(operation.id) };
  return { resource: resourceValue(operation.noun), operation: snakeCase(operation.id), label: titleWords(operation.id) };
}

/** The node's names of an action or search (whose entry is always a node operation's). */
export function n8nNodeName(operation: Pick<Operation, 'id' | 'kind' | 'noun'>): N8nNodeOperationName {
  const name = n8nName(operation);
  if (!('resource' in name)) throw new Error(`n8n names operation "${operation.id}" as no node operation: give it a resource and an operation value.`);
  return name;
}

/** The trigger's names of the hook. */
export function n8nTriggerName(operation: Pick<Operation, 'id' | 'kind' | 'noun'>): N8nTriggerName {
  const name = n8nName(operation);
  if (!('trigger' in name)) throw new Error(`n8n names operation "${operation.id}" as no trigger: give it a trigger name and label.`);
  return name;
}
