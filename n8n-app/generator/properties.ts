import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import type { InputField } from '../../shared/operations/types.ts';
import { TEAM_OPTIONS_METHOD } from '../names.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { n8nNodeName } from '../operation-names.ts';
import { nodeOperationsOf, type NodeOperation } from '../runtime/operations.ts';
import { description, sentenceCase, titleCase } from './wording.ts';

/** A narrowing of n8n's type that must still be one: fails the type check if it ever drifts. */
type Narrowed<T extends INodeProperties> = T;

/**
 * n8n's own `INodeProperties`, narrowed to what this generator writes: text or a list of
 * options, a text default, plain choices (not nested collections) and show-only conditions.
 */
export type NodeProperty = Narrowed<
  Omit<INodeProperties, 'type' | 'default' | 'options' | 'displayOptions'> & {
    type: 'string' | 'options';
    default: string;
    options?: INodePropertyOptions[];
    displayOptions?: { show: Record<string, string[]> };
  }
>;

/** n8n's own wording for a dropdown filled from the service (its lint rules ask for it). */
export const DYNAMIC_LABEL_SUFFIX = ' Name or ID';
export const DYNAMIC_HELP_SUFFIX = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';
/** An optional dropdown needs a value meaning "nothing chosen": the field is then left out. */
export const UNSET_CHOICE = { name: 'Leave Empty', value: '' } as const;

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** One shared input field as an n8n parameter. */
export function nodeProperty(field: InputField, show?: Record<string, string[]>): NodeProperty {
  const common = {
    displayName: titleCase(field.label),
    name: field.key,
    default: '',
    ...(field.required ? { required: true } : {}),
    ...(show ? { displayOptions: { show } } : {}),
  };
  if (field.dynamic === 'team') {
    return {
      ...common,
      displayName: `${titleCase(field.label)}${DYNAMIC_LABEL_SUFFIX}`,
      type: 'options',
      typeOptions: { loadOptionsMethod: TEAM_OPTIONS_METHOD },
      description: `${field.help} ${DYNAMIC_HELP_SUFFIX}`,
    };
  }
  if (field.choices) {
    const choices = field.choices.map((choice) => ({ name: titleCase(choice.label), value: choice.value }));
    return {
      ...common,
      type: 'options',
      options: [...choices, ...(field.required ? [] : [UNSET_CHOICE])].sort(byName),
      ...(field.required ? { default: choices[0]!.value } : {}),
      description: description(field.customValueAllowed ? `${field.help} ${CUSTOM_VALUE_NOTE}` : field.help),
    };
  }
  return {
    ...common,
    type: 'string',
    description: description(field.help),
    ...(field.example ? { placeholder: field.example } : {}),
    ...(field.type === 'text' ? { typeOptions: { rows: 4 } } : {}),
  };
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

/** Every parameter of the Pagerly node: resource, operation per resource, each operation's fields. */
export function actionNodeProperties(operations: readonly Operation[] = allOperations): NodeProperty[] {
  const groups = resources(operations);
  const resource: NodeProperty = {
    displayName: 'Resource',
    name: 'resource',
    type: 'options',
    noDataExpression: true,
    options: groups.map((group) => ({ name: group.name, value: group.value })).sort(byName),
    default: groups[0]!.value,
  };
  const operationsOf = groups.map(
    (group): NodeProperty => ({
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [group.value] } },
      options: group.operations
        .map((op) => {
          const { operation, label } = n8nNodeName(op);
          return { name: label, value: operation, description: description(op.description), action: sentenceCase(label) };
        })
        .sort(byName),
      default: n8nNodeName(group.operations[0]!).operation,
    }),
  );
  const fields = groups.flatMap((group) =>
    group.operations.flatMap((op) => op.inputFields.map((field) => nodeProperty(field, { resource: [group.value], operation: [n8nNodeName(op).operation] }))),
  );
  return [resource, ...operationsOf, ...fields];
}
