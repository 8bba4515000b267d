import { endpoints } from '../../shared/catalog/endpoints.ts';
import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import type { ActionOperation, SearchOperation } from '../../shared/operations/types.ts';
import { endpointRequest } from './communication.ts';
import { validDirective } from './errors.ts';
import { outputTemplate } from './iml-expressions.ts';
import { makeInterfaceField, makeParameter } from './parameters.ts';

export interface ModuleFiles {
  moduleType: 'action' | 'search' | 'instant_trigger' | 'universal';
  actionCrud?: 'create' | 'read' | 'update' | 'delete';
  label: string;
  description: string;
  communication: unknown;
  staticParams: unknown[];
  mappableParams: unknown[];
  interface: unknown[];
  samples: Record<string, unknown>;
}

/** What an action does to the service's data, for Make's module metadata. */
function crudOf(operation: ActionOperation): ModuleFiles['actionCrud'] {
  if (endpoints[operation.endpoint].method === 'DELETE') return 'delete';
  return operation.key.startsWith('create_') ? 'create' : 'update';
}

const described = (operation: ActionOperation | SearchOperation | typeof onCallChanged) => ({
  label: operation.label,
  description: operation.description,
  staticParams: [],
  interface: operation.outputFields.map(makeInterfaceField),
  samples: { ...operation.sample },
});

export function actionModule(operation: ActionOperation): ModuleFiles {
  return {
    ...described(operation),
    moduleType: 'action',
    actionCrud: crudOf(operation),
    communication: { ...endpointRequest(operation.endpoint, operation.inputFields), response: { output: '{{body}}' } },
    mappableParams: operation.inputFields.map(makeParameter),
  };
}

/**
 * A search iterates: one bundle per element of a list, or the one entry found. "Not found"
 * (404) is a valid answer with nothing in it, so the scenario goes on with no bundles.
 */
export function searchModule(operation: SearchOperation): ModuleFiles {
  const single = operation.notFoundIsEmpty ? '{{if(statusCode == 404, emptyarray, add(emptyarray, body))}}' : '{{add(emptyarray, body)}}';
  return {
    ...described(operation),
    moduleType: 'search',
    communication: {
      ...endpointRequest(operation.endpoint, operation.inputFields),
      response: {
        ...(operation.notFoundIsEmpty ? { valid: validDirective([404]) } : {}),
        iterate: operation.results === 'each-element' ? '{{body}}' : single,
        output: outputTemplate(operation.item),
      },
    },
    mappableParams: operation.inputFields.map(makeParameter),
  };
}

/** The instant trigger: the webhook's communication shapes each delivery; the module only describes it. */
export function instantTriggerModule(): ModuleFiles {
  return { ...described(onCallChanged), moduleType: 'instant_trigger', communication: {}, mappableParams: [] };
}
