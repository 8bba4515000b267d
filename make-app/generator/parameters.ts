import type { InputField, OutputField } from '../../shared/operations/types.ts';
import { CUSTOM_VALUE_NOTE } from '../../shared/operations/fields.ts';
import { EMAIL_ADDRESS_MAX, EMAIL_ADDRESS_SOURCE } from '../../shared/schemas/email-address.ts';
import { makeText, sentenceCase } from '../wording.ts';
import { TEAM_RPC } from './names.ts';

/** A Make parameter (parameters.json). */
export type MakeParameter = Record<string, unknown> & { name: string; type: string; label: string };

const inputTypes = { string: 'text', text: 'text', email: 'text', phone: 'text', url: 'url' } as const;

/**
 * An e-mail is a text parameter checked by the one address rule of every surface
 * (shared/schemas/email-address.ts), not Make's `email` type, whose own rule is not
 * documented: Make checks `validate.pattern` before the module runs (a mapped value at run
 * time), so `x&y@acme.example` and `zoë@exämple.de` pass and `a b@c.d` never leaves Make.
 * Space around the address is allowed: the request trims it (communication.ts), as the
 * other surfaces do. The lookahead bounds the trimmed address to the rule's length, as the
 * other surfaces do: an address holds no white space, so `\S{1,254}` is the whole of it.
 */
export const EMAIL_PARAMETER_VALIDATION = { pattern: `^\\s*(?=\\S{1,${EMAIL_ADDRESS_MAX}}\\s*$)${EMAIL_ADDRESS_SOURCE}\\s*$` } as const;

/**
 * Where a select filled by an RPC opens in mapping mode (`mode: "edit"`). Make's Remote
 * Procedure Calls page (developers.make.com/custom-apps-documentation/best-practices/remote-procedure-calls)
 * asks for it in Get, Update and Delete modules, not in a Create module, and not in a search
 * over an entity high in the hierarchy (a team); an instant trigger's webhook is set up once.
 */
export type RpcMode = 'edit' | 'select';

/** A shared input field as a Make mappable parameter: Make's label (sentence case) and wording. */
export function makeParameter(field: InputField, rpcMode: RpcMode = 'select'): MakeParameter {
  const custom = field.customValueAllowed ? ` ${CUSTOM_VALUE_NOTE}` : '';
  const common = { name: field.key, label: sentenceCase(field.label), required: field.required, help: makeText(`${field.help}${custom}`) };
  if (field.dynamic === 'team') return { ...common, type: 'select', options: `rpc://${TEAM_RPC}`, ...(rpcMode === 'edit' ? { mode: 'edit' } : {}) };
  if (field.choices) {
    return {
      ...common,
      type: 'select',
      options: field.choices.map((c) => ({ label: c.label, value: c.value })),
      ...(field.customValueAllowed ? { mode: 'edit' } : {}),
    };
  }
  return {
    ...common,
    type: inputTypes[field.type],
    ...(field.type === 'text' ? { multiline: true } : {}),
    ...(field.type === 'email' ? { validate: EMAIL_PARAMETER_VALIDATION } : {}),
  };
}

const outputTypes = { string: 'text', number: 'number', boolean: 'boolean', datetime: 'date', array: 'array', object: 'collection' } as const;

/** A shared output field as a Make interface entry; lists and objects keep their fields in `spec`. */
export function makeInterfaceField(field: OutputField): MakeParameter {
  const spec = field.spec ? { spec: field.spec.map(makeInterfaceField) } : {};
  return { name: field.key, label: sentenceCase(field.label), type: outputTypes[field.type], ...spec };
}

/**
 * Output fields in the order of the module's inputs (Make's Output labels page: "The output
 * labels and mappable parameters should be listed in the same order in both locations"): the
 * fields that match an input take, in the inputs' order, the places such fields had; the others
 * (the id, timestamps) stay where they were.
 */
export function inInputOrder(outputs: readonly OutputField[], inputs: readonly InputField[]): OutputField[] {
  const order = inputs.map((input) => input.key);
  const matching = outputs.filter((output) => order.includes(output.key)).sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  let next = 0;
  return outputs.map((output) => (order.includes(output.key) ? matching[next++]! : output));
}
