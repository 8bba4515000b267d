import type { Operation, OperationId } from '../shared/operations/types.ts';
import { sentenceWords, titleWords } from '../surfaces/id-words.ts';
import { TEAM_SEARCH_METHOD, TRIGGER_NODE } from './names.ts';

/**
 * An action or search: an operation of the Pagerly node, chosen by resource and operation value.
 * n8n's UX guidelines (https://docs.n8n.io/integrations/creating-nodes/build/reference/ux-guidelines/):
 * the operation's name does not repeat the resource shown above it ("Create"), its action, shown
 * in the node panel, does ("Create an incident").
 */
export interface N8nNodeOperationName {
  readonly resource: string;
  readonly operation: string;
  /** The operation's name in the node's dropdown (title case, n8n's vocabulary). */
  readonly label: string;
  /** The operation in the nodes panel (sentence case, with the resource). */
  readonly action: string;
}
/** The hook: the trigger node, with its label as the node's subtitle. */
export interface N8nTriggerName {
  readonly trigger: string;
  readonly label: string;
}
/** The team source: the node's `listSearch` method behind every team resource locator. */
export interface N8nListSearchName {
  readonly listSearchMethod: string;
}
export type N8nName = N8nNodeOperationName | N8nTriggerName | N8nListSearchName;

/**
 * Public contract once published: resource and operation values are stored in every workflow
 * that uses them, so renaming one breaks users' workflows. `satisfies` makes a missing or extra
 * operation a type error. Values are camelCase and the names n8n's CRUD vocabulary: Create, Get,
 * Get Many (`getAll`), Update, Delete.
 */
export const n8nNames = {
  listTeams: { listSearchMethod: TEAM_SEARCH_METHOD },
  onCallChanged: { trigger: TRIGGER_NODE.name, label: 'On-Call Changed' },
  createIncident: { resource: 'incident', operation: 'create', label: 'Create', action: 'Create an incident' },
  updateIncident: { resource: 'incident', operation: 'update', label: 'Update', action: 'Update an incident' },
  createDirectoryEntry: { resource: 'directoryEntry', operation: 'create', label: 'Create', action: 'Create a directory entry' },
  updateDirectoryEntry: { resource: 'directoryEntry', operation: 'update', label: 'Update', action: 'Update a directory entry' },
  updateDirectoryPhone: {
    resource: 'directoryEntry',
    operation: 'updatePhoneNumber',
    label: 'Update Phone Number',
    action: 'Update the phone number of a directory entry',
  },
  changeDirectoryRole: { resource: 'directoryEntry', operation: 'updateRole', label: 'Update Role', action: 'Update the role of a directory entry' },
  removeDirectoryEntry: { resource: 'directoryEntry', operation: 'delete', label: 'Delete', action: 'Delete a directory entry' },
  getOnCallUsers: { resource: 'onCallUser', operation: 'getAll', label: 'Get Many', action: 'Get many on call users' },
  getDirectoryEntry: { resource: 'directoryEntry', operation: 'get', label: 'Get', action: 'Get a directory entry' },
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
 * type check lets through without one) the convention: resource from the noun, the id as the
 * camelCase operation value, its words without the noun's as the label, the id in sentence
 * case as the action.
 */
export function n8nName(operation: Pick<Operation, 'id' | 'kind' | 'noun'>): N8nName {
  if (Object.hasOwn(n8nNames, operation.id)) return n8nNames[operation.id];
  if (operation.kind === 'list') return { listSearchMethod: TEAM_SEARCH_METHOD };
  if (operation.kind === 'hook') return { trigger: TRIGGER_NODE.name, label: titleWords(operation.id) };
  // The name does not repeat the resource ("Snooze" under Incident); the action does.
  const nounWords = operation.noun
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  const words = titleWords(operation.id).split(' ');
  const own = words.filter((word) => !nounWords.some((noun) => word.toLowerCase().startsWith(noun)));
  return { resource: resourceValue(operation.noun), operation: operation.id, label: (own.length ? own : words).join(' '), action: sentenceWords(operation.id) };
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
