import { operations, stepOf, THIS_STEP } from '../../shared/operations/index.ts';
import App from '../../zapier-app/index.ts';
import { zapierName, zapierSteps } from '../../zapier-app/operation-names.ts';

/**
 * The Zapier app's operations read back into one neutral form, which the Make and the n8n parity
 * tests read their own app into: the forms must be equal.
 */
export type Loose = Record<string, any>;

export interface NeutralField {
  key: string;
  label: string;
  kind: 'line' | 'multiline' | 'select' | 'team';
  required: boolean;
  help: string;
  choices: string[];
}
export interface NeutralOperation {
  /** The id of the shared operation whose label (in this platform's name map) this platform shows. */
  labelOf: string | undefined;
  description: string;
  fields: NeutralField[];
  outputs: string[];
}

/** Zapier's names of steps back into the shared texts' markers, which each platform writes out in its own words. */
export function neutralText(text: string): string {
  let said = text;
  for (const op of operations) said = said.split(zapierSteps.step(op.id)).join(stepOf(op.id));
  return said.split(zapierSteps.thisStep).join(THIS_STEP);
}

export function zapierField(field: Loose): NeutralField {
  return {
    key: field.key,
    label: field.label,
    kind: field.dynamic ? 'team' : field.choices ? 'select' : field.type === 'text' ? 'multiline' : 'line',
    required: Boolean(field.required),
    help: neutralText(field.helpText),
    choices: (field.choices ?? []).map((c: Loose) => `${c.value}=${c.label}`),
  };
}

export function fromZapier(definition: Loose): NeutralOperation {
  return {
    labelOf: operations.find((op) => zapierName(op).label === definition.display.label)?.id,
    description: neutralText(definition.display.description),
    // A Zapier `copy` field is a note shown above the inputs (a delete action's warning), not a field: Make says it in the description.
    fields: (definition.operation.inputFields ?? []).filter((field: Loose) => field.type !== 'copy').map(zapierField),
    outputs: definition.operation.outputFields.map((f: Loose) => `${f.key}:${f.type}`),
  };
}

export const zapierOperations: Record<string, Loose> = { ...App.triggers, ...App.creates, ...App.searches };
