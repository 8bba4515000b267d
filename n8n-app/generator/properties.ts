import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { InputField, Operation } from '../../shared/operations/types.ts';
import { TEAM_SEARCH_METHOD } from '../names.ts';
import { n8nNodeName } from '../operation-names.ts';
import { collectionOf, DEFAULT_LIMIT, LIMIT, LOCATOR_MODES, locatorValue, RETURN_ALL, returnsMany } from '../parameters.ts';
import { nodeOperationsOf, type NodeOperation } from '../runtime/operations.ts';
import { description, n8nSteps, n8nWords, titleCase } from './wording.ts';
import { retiringNote } from '../../shared/operations/retiring.ts';
import { nodeVersions, offeredIn, type NodeVersions } from './versions.ts';

/** A narrowing of n8n's type that must still be one: fails the type check if it ever drifts. */
type Narrowed<T extends INodeProperties> = T;

/**
 * n8n's own `INodeProperties`, narrowed to what this generator writes: show-only conditions on
 * resource, operation and Return All, and options that are choices or a collection's parameters.
 */
export type NodeProperty = Narrowed<
  Omit<INodeProperties, 'displayOptions' | 'options'> & {
    displayOptions?: { show: Record<string, Array<string | boolean | number>> };
    options?: Array<INodePropertyOptions | INodeProperties>;
  }
>;

/** A team's name as the placeholder of the resource locator's "By Name" mode. */
export const TEAM_NAME_PLACEHOLDER = 'e.g. Platform';

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
const byDisplayName = <T extends { displayName: string }>(a: T, b: T) => a.displayName.localeCompare(b.displayName);

/** One shared input field as an n8n parameter (`show` for a top-level one; none inside a collection). */
export function nodeProperty(field: InputField, words: (text: string) => string, show?: Record<string, string[]>): NodeProperty {
  // A help text that was only "leave empty" advice says nothing in a collection: no description.
  const help = (text: string) => {
    const said = description(words(text));
    return said ? { description: said } : {};
  };
  const common = {
    displayName: titleCase(field.label),
    name: field.key,
    default: '',
    ...(field.required ? { required: true } : {}),
    ...(show ? { displayOptions: { show } } : {}),
  };
  if (field.dynamic === 'team') {
    // n8n's UX guidelines: a resource locator wherever one item is picked, "From List" first.
    return {
      ...common,
      type: 'resourceLocator',
      default: locatorValue(''),
      ...help(field.help),
      modes: [
        { displayName: 'From List', name: LOCATOR_MODES.list, type: 'list', typeOptions: { searchListMethod: TEAM_SEARCH_METHOD, searchable: true } },
        { displayName: 'By Name', name: LOCATOR_MODES.name, type: 'string', placeholder: TEAM_NAME_PLACEHOLDER },
      ],
    };
  }
  if (field.choices) {
    const choices = field.choices.map((choice) => ({ name: titleCase(choice.label), value: choice.value })).sort(byName);
    return {
      ...common,
      type: 'options',
      options: choices,
      default: field.choices[0]!.value,
      ...help(field.customValueAllowed ? `${field.help} ${CUSTOM_VALUE_NOTE}` : field.help),
    };
  }
  return {
    ...common,
    type: 'string',
    ...help(field.help),
    // n8n's UX guidelines: placeholders start with "e.g.".
    ...(field.example ? { placeholder: `e.g. ${field.example}` } : {}),
    ...(field.type === 'text' ? { typeOptions: { rows: 4 } } : {}),
  };
}

/**
 * An operation's parameters: its required fields, n8n's Return All and Limit on a search that
 * finds a list, then its optional fields in one collection (sorted by name, as n8n's lint asks).
 */
export function operationProperties(operation: NodeOperation | Operation, words: (text: string) => string, show?: Record<string, string[]>): NodeProperty[] {
  const withShow = show ? { displayOptions: { show } } : {};
  const required = operation.inputFields.filter((field) => field.required).map((field) => nodeProperty(field, words, show));
  const many: NodeProperty[] = returnsMany(operation)
    ? [
        {
          displayName: 'Return All',
          name: RETURN_ALL,
          type: 'boolean',
          default: false,
          description: 'Whether to return all results or only up to a given limit',
          ...withShow,
        },
        {
          displayName: 'Limit',
          name: LIMIT,
          type: 'number',
          typeOptions: { minValue: 1 },
          default: DEFAULT_LIMIT,
          description: 'Max number of results to return',
          ...(show ? { displayOptions: { show: { ...show, [RETURN_ALL]: [false] } } } : { displayOptions: { show: { [RETURN_ALL]: [false] } } }),
        },
      ]
    : [];
  const optional = operation.inputFields.filter((field) => !field.required);
  if (optional.length === 0) return [...required, ...many];
  const collection = collectionOf(operation);
  const options = optional.map((field) => nodeProperty(field, words) as INodeProperties).sort(byDisplayName);
  return [
    ...required,
    ...many,
    { displayName: collection.displayName, name: collection.name, type: 'collection', placeholder: collection.placeholder, default: {}, options, ...withShow },
  ];
}

/** Resources in the order the shared descriptions first name them; each with its operations. */
export function resources(operations: readonly Operation[] = allOperations): { value: string; name: string; operations: NodeOperation[] }[] {
  const grouped = new Map<string, { value: string; name: string; operations: NodeOperation[] }>();
  for (const operation of nodeOperationsOf(operations)) {
    const value = n8nNodeName(operation).resource;
    const group = grouped.get(value) ?? { value, name: operation.noun, operations: [] };
    group.operations.push(operation);
    grouped.set(value, group);
  }
  return [...grouped.values()];
}

/**
 * The versions that offer the same choices share one selector: `choicesAt(version)` is what a
 * node of that version offers, and each run of versions offering the same is one property, shown
 * to those versions only (n8n's `@version` condition) unless it is the only one.
 */
function perVersion<T extends { value: string }>(node: NodeVersions, choicesAt: (version: number) => T[]): { show: Record<string, number[]>; choices: T[] }[] {
  const runs: { versions: number[]; choices: T[] }[] = [];
  for (const version of node.versions) {
    const choices = choicesAt(version);
    const same = runs.find((run) => run.choices.map((c) => c.value).join() === choices.map((c) => c.value).join());
    if (same) same.versions.push(version);
    else if (choices.length > 0) runs.push({ versions: [version], choices });
  }
  const everyVersion = (run: { versions: number[] }) => runs.length === 1 && run.versions.length === node.versions.length;
  return runs.map((run): { show: Record<string, number[]>; choices: T[] } => ({
    show: everyVersion(run) ? {} : { '@version': run.versions },
    choices: run.choices,
  }));
}

/**
 * Every parameter of the Pagerly node: resource, operation per resource, each operation's fields.
 * A retiring operation is offered only by the node versions before its retirement
 * (generator/versions.ts): saved workflows keep it, a new node does not list it, and its panel
 * says what to use instead.
 */
export function actionNodeProperties(operations: readonly Operation[] = allOperations): NodeProperty[] {
  const groups = resources(operations);
  const node = nodeVersions(nodeOperationsOf(operations));
  const offered = (op: NodeOperation, version: number) => offeredIn(node, op).includes(version);
  const words = n8nWords;
  const resourceProperties = perVersion(node, (version) =>
    groups.filter((group) => group.operations.some((op) => offered(op, version))).map((group) => ({ name: group.name, value: group.value })),
  ).map(
    ({ show, choices }): NodeProperty => ({
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      ...(Object.keys(show).length ? { displayOptions: { show } } : {}),
      // Listed by name; the default stays the first resource of the descriptions, as released.
      options: [...choices].sort(byName),
      default: choices[0]!.value,
    }),
  );
  const operationsOf = groups.flatMap((group) =>
    perVersion(node, (version) => group.operations.filter((op) => offered(op, version)).map((op) => ({ op, value: n8nNodeName(op).operation }))).map(
      ({ show, choices }): NodeProperty => ({
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        displayOptions: { show: { resource: [group.value], ...show } },
        options: choices
          .map(({ op }) => {
            const { operation, label, action } = n8nNodeName(op);
            return { name: label, value: operation, description: description(words(op.description)), action };
          })
          .sort(byName),
        default: choices[0]!.value,
      }),
    ),
  );
  const fields = groups.flatMap((group) =>
    group.operations.flatMap((op) => {
      const show = { resource: [group.value], operation: [n8nNodeName(op).operation] };
      return [...retiringNotice(op, show), ...operationProperties(op, words, show)];
    }),
  );
  return [...resourceProperties, ...operationsOf, ...fields];
}

/** The name of the notice a retiring operation's panel opens with. */
export const RETIRING_NOTICE = 'deprecationNotice';

/** A notice above a retiring operation's parameters, in n8n's words: what to use instead. */
export function retiringNotice(operation: Operation, show?: Record<string, string[]>): NodeProperty[] {
  const note = retiringNote(operation, n8nSteps.step);
  if (!note) return [];
  return [{ displayName: note, name: RETIRING_NOTICE, type: 'notice', default: '', ...(show ? { displayOptions: { show } } : {}) }];
}
