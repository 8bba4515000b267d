import type { PlainOutputField } from 'zapier-platform-core';
import type { OutputField } from '../../shared/operations/types.ts';
import { intern } from './intern.ts';

/** Zapier's form of a shared output field: core's own type. */
export type ZapierOutputField = PlainOutputField;

const converted = new WeakMap<readonly OutputField[], ZapierOutputField[]>();

/**
 * Zapier's output fields are flat: an object's fields are `parent__child`, a list's are
 * `parent[]child` (line items). The shared descriptions nest; this flattens them. A list that
 * several operations share (a directory entry's fields) is converted once and shared, and so is
 * a field that several lists hold alike (a team's ID and name): core deep-copies the
 * definition on every call, and a shared object is copied once (intern.ts).
 */
export function zapierOutputFields(fields: readonly OutputField[]): ZapierOutputField[] {
  const known = converted.get(fields);
  if (known) return known;
  const flat = flatten(fields);
  converted.set(fields, flat);
  return flat;
}

function flatten(fields: readonly OutputField[], prefix = '', labelPrefix = ''): ZapierOutputField[] {
  return fields.flatMap((field): ZapierOutputField[] => {
    const key = `${prefix}${field.key}`;
    const label = `${labelPrefix}${field.label}`;
    if (field.type === 'array') return flatten(field.spec ?? [], `${key}[]`, `${label}: `);
    if (field.type === 'object') return flatten(field.spec ?? [], `${key}__`, `${label}: `);
    return [intern({ key, label, type: field.type })];
  });
}
