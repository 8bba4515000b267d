import type { Endpoint } from '../../shared/catalog/endpoint.ts';
import type { ActionOperation, HookOperation, SearchOperation } from '../../shared/operations/types.ts';
import { endpointRequest } from './communication.ts';
import { validDirective } from './response-directives.ts';
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

const described = (operation: ActionOperation | SearchOperation | HookOperation) => ({
  label: operation.label,
  description: operation.description,
  staticParams: [],
  interface: operation.outputFields.map(makeInterfaceField),
  samples: { ...operation.sample },
});

/** An action module; `endpoint` is the catalog's entry for `operation.endpoint`. */
export function actionModule(operation: ActionOperation, endpoint: Endpoint): ModuleFiles {
  return {
    ...described(operation),
    moduleType: 'action',
    actionCrud: operation.effect,
    communication: { ...endpointRequest(endpoint, operation.inputFields), response: { output: '{{body}}' } },
    mappableParams: operation.inputFields.map(makeParameter),
  };
}

/**
 * A search iterates: one bundle per element of a list, or the one entry found. "Not found"
 * (404) is a valid answer with nothing in it, so the scenario goes on with no bundles.
 */
export function searchModule(operation: SearchOperation, endpoint: Endpoint): ModuleFiles {
  const single = operation.notFoundIsEmpty ? '{{if(statusCode == 404, emptyarray, add(emptyarray, body))}}' : '{{add(emptyarray, body)}}';
  return {
    ...described(operation),
    moduleType: 'search',
    communication: {
      ...endpointRequest(endpoint, operation.inputFields),
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
export function instantTriggerModule(operation: HookOperation): ModuleFiles {
  return { ...described(operation), moduleType: 'instant_trigger', communication: {}, mappableParams: [] };
}
