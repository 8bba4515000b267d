import type { EndpointKey } from '../catalog/endpoints.ts';
import type { ItemShape } from './item-shape.ts';

/**
 * One description of each connector operation: every app is built from these, never written by
 * hand. An operation is known by its neutral id; each app keeps its own public names for it in its
 * own folder, in a map keyed by `OperationId`, so that a missing or extra entry fails the type check.
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

/** Every operation's neutral id (camelCase): the key of each app's map of public names. */
export type OperationId =
  | 'listTeams'
  | 'onCallChanged'
  | 'createIncident'
  | 'updateIncident'
  | 'createDirectoryEntry'
  | 'updateDirectoryEntry'
  | 'updateDirectoryPhone'
  | 'changeDirectoryRole'
  | 'removeDirectoryEntry'
  | 'getOnCallUsers'
  | 'getDirectoryEntry';

/**
 * An operation on its way out. Users' automations store its key, so it is never simply deleted:
 * from the release `since` on, every surface keeps it running where it is already used and stops
 * offering it for new use, each in its platform's way (shared/operations/retiring.ts); it is
 * removed only in a later major version.
 */
export interface Retiring {
  /** The version (package.json's) of the first release that hid it. */
  readonly since: string;
  /** The operation that does its job now, named to users in each surface's own words. */
  readonly use?: OperationId;
}

interface OperationBase {
  readonly id: OperationId;
  readonly noun: string;
  readonly description: string;
  readonly inputFields: readonly InputField[];
  readonly outputFields: readonly OutputField[];
  readonly sample: Readonly<Record<string, unknown>>;
  readonly retiring?: Retiring;
}

/**
 * The heading an operation is listed under in an app (Make's module groups), e.g. "On call":
 * operations of one group are listed together, groups in the order their first operation comes.
 */
interface Grouped {
  readonly group: string;
}

/** What an action does to the service's data (Make's `actionCrud`). */
export type ActionEffect = 'create' | 'update' | 'delete';

/** Calls one endpoint and returns what it answered. */
export interface ActionOperation extends OperationBase, Grouped {
  readonly kind: 'action';
  readonly endpoint: EndpointKey;
  readonly effect: ActionEffect;
  /**
   * The endpoint replaces the whole record, so an update reads it first (`read`, with the same
   * identifying fields) and fills each field the user left empty with its current value.
   */
  readonly keepsOmitted?: { readonly read: EndpointKey };
  /** A "not found" answer means the goal is already reached: the step succeeds with this output. */
  readonly notFoundIsDone?: Readonly<Record<string, unknown>>;
  /** Said above the fields: what cannot be undone (Zapier's guidance for delete actions). */
  readonly irreversible?: string;
  /**
   * What the action does, as its errors say it, where its endpoint does more (one endpoint
   * creates and updates incidents): a create's errors name only the create.
   */
  readonly summary?: string;
}

/** Finds things: a list (one result per element) or one entry; "not found" is an empty result. */
export interface SearchOperation extends OperationBase, Grouped {
  readonly kind: 'search';
  readonly endpoint: EndpointKey;
  readonly results: 'each-element' | 'single';
  readonly notFoundIsEmpty: boolean;
  /** How each result is shaped from the answer (`body`) and the element (`item`); its derived fields are output fields too. */
  readonly item: ItemShape;
  /**
   * Read team by team from documented calls (the team list, then each team by name; never the
   * endpoint without a team): this field names one team, empty means every team, and each
   * result carries its `team`. A surface that cannot make a variable number of requests (Make)
   * requires the field instead.
   */
  readonly teamByTeam?: { readonly field: string };
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
export interface HookOperation extends OperationBase, Grouped {
  readonly kind: 'hook';
  /** The item a delivered payload (`body`) becomes; its derived fields are output fields too. */
  readonly item: ItemShape;
}

export type Operation = ActionOperation | SearchOperation | ListOperation | HookOperation;
