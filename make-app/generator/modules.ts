import type { Endpoint } from '../../shared/catalog/endpoint.ts';
import type { ActionOperation, HookOperation, InputField, SearchOperation } from '../../shared/operations/types.ts';
import { endpointRequest } from './communication.ts';
import { outputTemplate } from './iml-expressions.ts';
import { writeResponse } from './write-answer-iml.ts';
import { inInputOrder, makeInterfaceField, makeParameter, type RpcMode } from './parameters.ts';
import { makeName } from '../operation-names.ts';
import { makeDescription } from '../wording.ts';
import { retiringNote } from '../../shared/operations/retiring.ts';

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
  ...makeLabels(operation),
  staticParams: [],
  interface: inInputOrder(operation.outputFields, operation.inputFields).map(makeInterfaceField),
  samples: { ...operation.sample },
});

/**
 * What the scenario editor shows of a module. A retiring one is kept (Make applies an app's change
 * to every scenario at once, and a custom app has no way to hide a module scenarios use), marked
 * deprecated in its label and saying what to use in its description, as Make's "Manage breaking
 * changes" page asks of a removal: announced in advance, the original still usable
 * (developers.make.com/custom-apps-documentation/app-maintenance/updating-your-app/approved-apps/managing-breaking-changes).
 */
export function makeLabels(operation: ActionOperation | SearchOperation | HookOperation): { label: string; description: string } {
  const { label } = makeName(operation);
  const note = retiringNote(operation, (id) => `the ${makeName({ id }).label} module`);
  return note ? { label: `${label} (deprecated)`, description: `${makeDescription(operation)} ${note}` } : { label, description: makeDescription(operation) };
}

/** Get, Update and Delete modules open an RPC select in mapping mode (parameters.ts `RpcMode`). */
const rpcModeOf = (crud: ModuleFiles['actionCrud']): RpcMode => (crud === 'read' || crud === 'update' || crud === 'delete' ? 'edit' : 'select');

/**
 * An action module; `endpointOf` gives the catalog's entry for an endpoint key. An update of a
 * replace-only endpoint (`keepsOmitted`) is two requests, as Make's "Multiple Requests" page
 * advises for a "full update approach": the current record is read into `temp`, and every
 * optional field left empty is sent with its current value.
 */
export function actionModule(operation: ActionOperation, endpointOf: (key: string) => Endpoint): ModuleFiles {
  // The catalog says which writes create a record whose id is read (`createsUnless`), as the client reads it.
  const endpoint = endpointOf(operation.endpoint);
  const creates = endpoint.createsUnless;
  const givenId = creates && operation.inputFields.some((field) => field.key === creates.field) ? `parameters.${creates.field}` : undefined;
  const response = endpoint.successWhateverTheBody
    ? writeResponse(creates ? { noun: creates.noun, ...(givenId ? { givenId } : {}) } : undefined)
    : { output: '{{body}}' };
  const write = (kept?: (name: string) => string) => ({
    ...endpointRequest(endpoint, operation.inputFields, kept),
    response,
  });
  const communication = operation.keepsOmitted
    ? [
        // Only what is particular to this request: Make merges `temp` directives, never
        // overwrites them (Custom apps › temp), so the Base's safe text stays beside `current`.
        {
          ...endpointRequest(
            endpointOf(operation.keepsOmitted.read),
            operation.inputFields.filter((field) => field.required),
          ),
          response: { temp: { current: '{{body}}' } },
        },
        write((name) => `temp.current.${name}`),
      ]
    : write();
  return {
    ...described(operation),
    moduleType: 'action',
    actionCrud: operation.effect,
    communication,
    mappableParams: operation.inputFields.map((field) => makeParameter(field, rpcModeOf(operation.effect))),
  };
}

/**
 * A search read team by team elsewhere asks one team in Make: a module makes a fixed number of
 * requests, and `currentusers` is never asked without a team (the reference marks it required).
 * Every team is one run per team, e.g. behind an iterator over a list of team names.
 */
function oneTeamOnly(field: InputField): InputField {
  return { ...field, required: true, help: 'The team to look up. To ask every team, run this module once per team.' };
}

/** Each result as the other surfaces give it: with its team (the one asked, by name). */
function searchOutput(operation: SearchOperation): Record<string, unknown> {
  const output = outputTemplate(operation.item);
  const field = operation.teamByTeam?.field;
  return field ? { ...output, team: { name: `{{parameters.${field}}}` } } : output;
}

/**
 * Make's `limit` parameter of a search (Best practices › Search modules: "limit":
 * "{{parameters.limit}}" beside `iterate`), read by `response.limit`. Make-only: Zapier has none.
 * Optional, 10 by default and the last field, as Make's reviewers ask of every search
 * (developers.make.com/custom-apps-documentation/best-practices/modules/search-modules).
 */
export const LIMIT_PARAMETER = {
  name: 'limit',
  type: 'uinteger',
  label: 'Limit',
  default: 10,
  required: false,
  help: 'The most results this module returns in one run.',
} as const;

/**
 * A search that returns a list iterates: one bundle per element, up to `limit`; an empty list
 * (a 2xx) is no bundles. A search for one thing is a Make action that reads (`actionCrud: read`,
 * no `iterate`, as Best practices › Action and search modules ask): Make treats a 404 as an
 * error (Custom apps › Error handling), so "nobody has this e-mail" is a `[404]` error the
 * scenario can catch with an error handler, not an empty result.
 */
export function searchModule(operation: SearchOperation, endpoint: Endpoint): ModuleFiles {
  const fields = operation.inputFields.map((field) => (field.key === operation.teamByTeam?.field ? oneTeamOnly(field) : field));
  const request = endpointRequest(endpoint, fields);
  // A get is a read module (mapping mode); a search over teams is not (parameters.ts `RpcMode`).
  const mappableParams = fields.map((field) => makeParameter(field, rpcModeOf(operation.results === 'single' ? 'read' : undefined)));
  if (operation.results === 'single') {
    return {
      ...described(operation),
      moduleType: 'action',
      actionCrud: 'read',
      communication: { ...request, response: { output: outputTemplate(operation.item) } },
      mappableParams,
    };
  }
  return {
    ...described(operation),
    moduleType: 'search',
    communication: { ...request, response: { iterate: '{{body}}', limit: `{{parameters.${LIMIT_PARAMETER.name}}}`, output: searchOutput(operation) } },
    mappableParams: [...mappableParams, { ...LIMIT_PARAMETER }],
  };
}

/** The instant trigger: the webhook's communication shapes each delivery; the module only describes it. */
export function instantTriggerModule(operation: HookOperation): ModuleFiles {
  return { ...described(operation), moduleType: 'instant_trigger', communication: {}, mappableParams: [] };
}
