import type { OutputField } from '../../shared/operations/types.ts';

export interface ZapierOutputField {
  key: string;
  label: string;
  type?: 'string' | 'number' | 'boolean' | 'datetime';
}

/**
 * Zapier's output fields are flat: an object's fields are `parent__child`, a list's are
 * `parent[]child` (line items). The shared descriptions nest; this flattens them.
 */
export function zapierOutputFields(fields: readonly OutputField[], prefix = '', labelPrefix = ''): ZapierOutputField[] {
  return fields.flatMap((field): ZapierOutputField[] => {
    const key = `${prefix}${field.key}`;
    const label = `${labelPrefix}${field.label}`;
    if (field.type === 'array') return zapierOutputFields(field.spec ?? [], `${key}[]`, `${label}: `);
    if (field.type === 'object') return zapierOutputFields(field.spec ?? [], `${key}__`, `${label}: `);
    return [{ key, label, type: field.type }];
  });
}
