import type { InputField, OutputField } from '../../shared/operations/types.ts';
import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { TEAM_RPC } from './names.ts';

/** A Make parameter (parameters.json). */
export type MakeParameter = Record<string, unknown> & { name: string; type: string; label: string };

const inputTypes = { string: 'text', text: 'text', email: 'email', phone: 'text', url: 'url' } as const;

/** A shared input field as a Make mappable parameter. */
export function makeParameter(field: InputField): MakeParameter {
  const custom = field.customValueAllowed ? ` ${CUSTOM_VALUE_NOTE}` : '';
  const common = { name: field.key, label: field.label, required: field.required, help: `${field.help}${custom}` };
  if (field.dynamic === 'team') return { ...common, type: 'select', options: `rpc://${TEAM_RPC}`, mode: 'edit' };
  if (field.choices) {
    return {
      ...common,
      type: 'select',
      options: field.choices.map((c) => ({ label: c.label, value: c.value })),
      ...(field.customValueAllowed ? { mode: 'edit' } : {}),
    };
  }
  return { ...common, type: inputTypes[field.type], ...(field.type === 'text' ? { multiline: true } : {}) };
}

const outputTypes = { string: 'text', number: 'number', boolean: 'boolean', datetime: 'date', array: 'array', object: 'collection' } as const;

/** A shared output field as a Make interface entry; lists and objects keep their fields in `spec`. */
export function makeInterfaceField(field: OutputField): MakeParameter {
  const spec = field.spec ? { spec: field.spec.map(makeInterfaceField) } : {};
  return { name: field.key, label: field.label, type: outputTypes[field.type], ...spec };
}
