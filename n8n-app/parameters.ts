import type { InputField, Operation } from '../shared/operations/types.ts';

/**
 * Where each input field of an operation sits in the node's parameters, for the generator that
 * lays them out and the runtime that reads them back. n8n's own nodes put required fields first
 * and the optional ones in one collection: "Additional Fields" when creating, "Update Fields"
 * when updating, "Filters" when reading (for example n8n's PagerDuty node,
 * packages/nodes-base/nodes/PagerDuty/IncidentDescription.ts, and its Gmail Trigger's Filters).
 */
export interface Collection {
  readonly name: string;
  readonly displayName: string;
  readonly placeholder: string;
}

export const COLLECTIONS = {
  additional: { name: 'additionalFields', displayName: 'Additional Fields', placeholder: 'Add Field' },
  update: { name: 'updateFields', displayName: 'Update Fields', placeholder: 'Add Field' },
  filters: { name: 'filters', displayName: 'Filters', placeholder: 'Add Filter' },
} as const satisfies Record<string, Collection>;

/** The collection an operation's optional fields go into. */
export function collectionOf(operation: Pick<Operation, 'kind'> & { effect?: string }): Collection {
  if (operation.kind === 'search' || operation.kind === 'hook') return COLLECTIONS.filters;
  return operation.effect === 'update' ? COLLECTIONS.update : COLLECTIONS.additional;
}

/** A field's place: its own parameter when required, else a key of the operation's collection. */
export const parameterPath = (operation: Pick<Operation, 'kind'> & { effect?: string }, field: InputField): readonly string[] =>
  field.required ? [field.key] : [collectionOf(operation).name, field.key];

/** n8n's "Get Many" pair (Return All, and Limit when it is off), on a search that finds a list. */
export const RETURN_ALL = 'returnAll';
export const LIMIT = 'limit';
/** n8n's lint asks for 50 as a limit's default (node-param-default-wrong-for-limit). */
export const DEFAULT_LIMIT = 50;
export const returnsMany = (operation: Operation): boolean => operation.kind === 'search' && operation.results === 'each-element';

/** A resource locator's stored value: the mode the user picked and the value (here a team's name). */
export interface LocatorValue {
  readonly __rl: true;
  readonly mode: string;
  readonly value: string;
}
export const LOCATOR_MODES = { list: 'list', name: 'name' } as const;
export const locatorValue = (value: string, mode: string = LOCATOR_MODES.list): LocatorValue => ({ __rl: true, mode, value });
const isLocator = (value: unknown): value is { value: unknown } => value !== null && typeof value === 'object' && '__rl' in value;

/** What a parameter holds as the endpoint's input: a resource locator's value, else the value itself. */
export const fieldValue = (value: unknown): unknown => (isLocator(value) ? value.value : value);

/**
 * The node's parameters for one operation from plain field values (a workflow a test or the
 * README writes): required fields at the top, the others in their collection, a team as a
 * resource locator "From List". Empty values are left out, as n8n leaves out what was not set.
 */
export function parametersOf(operation: Operation, values: Readonly<Record<string, string>>): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  const collection: Record<string, unknown> = {};
  for (const field of operation.inputFields) {
    const value = values[field.key];
    if (value === undefined || value === '') {
      if (field.required) parameters[field.key] = field.dynamic === 'team' ? locatorValue('') : '';
      continue;
    }
    const stored = field.dynamic === 'team' ? locatorValue(value) : value;
    if (field.required) parameters[field.key] = stored;
    else collection[field.key] = stored;
  }
  if (operation.inputFields.some((field) => !field.required)) parameters[collectionOf(operation).name] = collection;
  return parameters;
}
