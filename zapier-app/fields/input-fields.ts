import type { FieldChoiceWithLabel, PlainInputField } from 'zapier-platform-core';
import type { InputField } from '../../shared/operations/types.ts';
import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { zapierText } from '../operation-names.ts';
import { intern } from './intern.ts';
import { TEAM_DROPDOWN } from './team-dropdown.ts';

/**
 * Zapier's form of a shared input field: core's own type, so the schema's names and values are
 * checked, with its choices narrowed to the one form written here (value, label and sample).
 */
export type ZapierInputField = Omit<PlainInputField, 'choices'> & { choices?: FieldChoiceWithLabel[] };

/**
 * A field or a list of choices that several operations write alike (the incident's severity
 * and status, a directory entry's e-mail and role) is one shared object in the definition, as
 * output fields are (output-fields.ts): see intern.ts for why.
 */
export function zapierInputField(field: InputField): ZapierInputField {
  const custom = field.customValueAllowed ? ` ${CUSTOM_VALUE_NOTE}` : '';
  return intern({
    key: field.key,
    label: field.label,
    type: field.type === 'text' ? 'text' : 'string',
    required: field.required,
    helpText: zapierText(`${field.help}${custom}`),
    ...(field.example ? { placeholder: field.example } : {}),
    ...(field.choices ? { choices: intern(field.choices.map((c) => ({ value: c.value, label: c.label, sample: c.value }))) } : {}),
    ...(field.dynamic === 'team' ? { dynamic: TEAM_DROPDOWN } : {}),
  });
}
