import type { EndpointKey } from '../catalog/endpoints.ts';
import type { ItemShape } from './item-shape.ts';

/**
 * One description of each connector operation: both the Zapier app and the Make app are
 * built from these, never written by hand. Keys and Make names are public contract:
 * renaming one breaks users' Zaps and scenarios.
 */
export type InputFieldType = 'string' | 'text' | 'email' | 'phone' | 'url';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface InputField {
  /** Also the endpoint's input field of the same name. */
  readonly key: string;
  readonly label: string;
  readonly type: InputFieldType;
  readonly required: boolean;
  readonly help: string;
  readonly choices?: readonly Choice[];
  /** The choices are suggestions: any other value may be typed or mapped. */
  readonly customValueAllowed?: boolean;
  /** Choices come from the team list (value = team name). */
  readonly dynamic?: 'team';
  readonly example?: string;
}

export type OutputFieldType = 'string' | 'number' | 'boolean' | 'datetime' | 'array' | 'object';

export interface OutputField {
  readonly key: string;
  readonly label: string;
  readonly type: OutputFieldType;
  /** Fields of each array element, or of the object. */
  readonly spec?: readonly OutputField[];
}

interface OperationBase {
  /** Zapier key (snake_case). */
  readonly key: string;
  /** Make module or RPC name (camelCase). */
  readonly makeName: string;
  readonly noun: string;
  readonly label: string;
  readonly makeLabel?: string;
  readonly description: string;
  readonly inputFields: readonly InputField[];
  readonly outputFields: readonly OutputField[];
  readonly sample: Readonly<Record<string, unknown>>;
}

/** Calls one endpoint and returns what it answered. */
export interface ActionOperation extends OperationBase {
  readonly kind: 'action';
  readonly endpoint: EndpointKey;
}

/** Finds things: a list (one result per element) or one entry; "not found" is an empty result. */
export interface SearchOperation extends OperationBase {
  readonly kind: 'search';
  readonly endpoint: EndpointKey;
  readonly results: 'each-element' | 'single';
  readonly notFoundIsEmpty: boolean;
  /** How each result is shaped from the answer (`body`) and the element (`item`). */
  readonly item: ItemShape;
}

/** Choices of a dynamic dropdown. */
export interface ListOperation extends Omit<OperationBase, 'inputFields'> {
  readonly kind: 'list';
  readonly endpoint: EndpointKey;
  readonly valueField: string;
  readonly labelField: string;
  readonly inputFields: readonly [];
}

/** An instant trigger on the service's hooks. */
export interface HookOperation extends OperationBase {
  readonly kind: 'hook';
  readonly subscribe: { readonly zapier: EndpointKey; readonly make: EndpointKey };
  readonly unsubscribe: { readonly zapier: EndpointKey; readonly make: EndpointKey };
  /** The item a delivered payload (`body`) becomes. */
  readonly item: ItemShape;
}

export type Operation = ActionOperation | SearchOperation | ListOperation | HookOperation;
