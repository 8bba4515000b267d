import { createIncident } from '../../shared/operations/create-incident.ts';
import type { InputField } from '../../shared/operations/types.ts';
import { ACTION_NODE, CREDENTIAL, TRIGGER_NODE } from '../names.ts';
import { n8nNodeName } from '../operation-names.ts';
import { parametersOf } from '../parameters.ts';
import { hookOperation, nodeOperations, type NodeOperation } from '../runtime/operations.ts';

/** n8n names nodes loaded from a custom extension folder `CUSTOM.<name>`. */
export const nodeType = (name: string) => `CUSTOM.${name}`;

export interface CredentialRef {
  id: string;
  name: string;
}

/**
 * A value for each required field, from the shared description alone: its example, else its
 * first choice, else (a team) the first team the resource locator offered. Optional fields
 * stay empty, so every operation also proves it leaves them out.
 */
function valueFor(field: InputField, firstTeam: string): string {
  if (!field.required) return '';
  if (field.dynamic === 'team') return firstTeam;
  return field.example ?? field.choices?.[0]?.value ?? '';
}

/**
 * The Pagerly node's parameters for one operation, as n8n stores them: resource, operation,
 * required fields filled from the description (or `values`), optional ones in their collection.
 */
export function parametersFor(operation: NodeOperation, firstTeam: string, values: Readonly<Record<string, string>> = {}): Record<string, unknown> {
  const { resource, operation: value } = n8nNodeName(operation);
  const filled = Object.fromEntries(operation.inputFields.map((field) => [field.key, values[field.key] ?? valueFor(field, firstTeam)]));
  return { resource, operation: value, ...parametersOf(operation, filled) };
}

/** The node's name in the workflow: its operation's action, unique within the workflow. */
export const nodeName = (operation: NodeOperation) => n8nNodeName(operation).action;

/**
 * Every action and search of the Pagerly node, one after the other behind a manual trigger.
 * Each runs once (`executeOnce`) and passes an item on even when a search finds nothing
 * (`alwaysOutputData`), so one run reaches every operation.
 */
export function actionsWorkflow(credential: CredentialRef, firstTeam: string) {
  const trigger = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  const nodes = nodeOperations.map((operation, index) => ({
    id: `op-${index}`,
    name: nodeName(operation),
    type: nodeType(ACTION_NODE.name),
    typeVersion: 1,
    position: [220 * (index + 1), 0],
    executeOnce: true,
    alwaysOutputData: true,
    parameters: parametersFor(operation, firstTeam),
    credentials: { [CREDENTIAL.name]: credential },
  }));
  const chain = [trigger, ...nodes];
  const connections = Object.fromEntries(
    chain.slice(0, -1).map((node, index) => [node.name, { main: [[{ node: chain[index + 1]!.name, type: 'main', index: 0 }]] }]),
  );
  return { name: 'Pagerly: every operation', nodes: chain, connections, settings: { executionOrder: 'v1' } };
}

/**
 * n8n's Poll Times parameter (which n8n adds to every polling node), one custom cron expression
 * an entry. n8n refuses an expression that fires more than once a minute, so a fast test gives
 * several fixed seconds of the minute, each its own entry.
 */
export const pollTimes = (cronExpressions: readonly string[]) => ({ item: cronExpressions.map((cronExpression) => ({ mode: 'custom', cronExpression })) });

/** The polling trigger alone, on one team (empty: every team): activation polls once, then on the poll times. */
export function triggerWorkflow(credential: CredentialRef, teamname: string, poll = pollTimes(['0 * * * * *'])) {
  const hook = hookOperation();
  const node = {
    id: 'trigger',
    name: TRIGGER_NODE.displayName,
    type: nodeType(TRIGGER_NODE.name),
    typeVersion: 1,
    position: [0, 0],
    parameters: {
      pollTimes: poll,
      ...parametersOf(hook, Object.fromEntries(hook.inputFields.map((field) => [field.key, field.dynamic === 'team' ? teamname : '']))),
    },
    credentials: { [CREDENTIAL.name]: credential },
  };
  return { name: 'Pagerly: on-call changes', nodes: [node], connections: {}, settings: { executionOrder: 'v1' } };
}

/**
 * Every action and search once per credential, each straight behind the manual trigger and
 * set to continue on error (n8n's `onError`), so one run shows what each operation does when its
 * base URL answers with a redirect: the error each item carries, and no request elsewhere.
 */
export function everyOperationPerCredential(credentials: readonly { label: string; credential: CredentialRef }[]) {
  const trigger = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  const nodes = credentials.flatMap(({ label, credential }, row) =>
    nodeOperations.map((operation, index) => ({
      id: `op-${row}-${index}`,
      name: `${label}: ${nodeName(operation)}`,
      type: nodeType(ACTION_NODE.name),
      typeVersion: 1,
      position: [220 * (index + 1), 200 * row],
      executeOnce: true,
      onError: 'continueRegularOutput',
      parameters: parametersFor(operation, 'Platform'),
      credentials: { [CREDENTIAL.name]: credential },
    })),
  );
  const connections = { [trigger.name]: { main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))] } };
  return { name: 'Pagerly: every operation on redirecting bases', nodes: [trigger, ...nodes], connections, settings: { executionOrder: 'v1' } };
}

/** The Pagerly node's create-incident operation, found by the shared description's id (its n8n names come from operation-names.ts). */
export const createIncidentOperation = () => {
  const operation = nodeOperations.find((candidate) => candidate.id === createIncident.id);
  if (!operation) throw new Error('the Pagerly node has no createIncident operation');
  return operation;
};

/**
 * The polling trigger on one team, each on-call change it emits opening an incident through
 * the Pagerly node (title from the change, so each incident names the item that made it): in
 * queue mode the poll runs on the main instance and the execution on a worker.
 */
export function triggerToIncidentWorkflow(credential: CredentialRef, teamname: string, poll: ReturnType<typeof pollTimes>) {
  const trigger = triggerWorkflow(credential, teamname, poll).nodes[0]!;
  const operation = createIncidentOperation();
  const action = {
    id: 'incident',
    name: nodeName(operation),
    type: nodeType(ACTION_NODE.name),
    typeVersion: 1,
    position: [220, 0],
    parameters: parametersFor(operation, teamname, { title: INCIDENT_TITLE_EXPRESSION, teamname }),
    credentials: { [CREDENTIAL.name]: credential },
  };
  return {
    name: 'Pagerly: on-call change opens an incident',
    nodes: [trigger, action],
    connections: { [trigger.name]: { main: [[{ node: action.name, type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}
/** An n8n expression: the change's type and the person's id, e.g. `on_call_started usr_0002`. */
export const INCIDENT_TITLE_EXPRESSION = '={{ $json.type + " " + $json.user.id }}';
