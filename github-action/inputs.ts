import { DEFAULT_BASE_URL } from '../shared/settings.ts';
import { inStepWords } from '../shared/operations/step-mentions.ts';
import type { ActionOperation, InputField } from '../shared/operations/types.ts';
import type { SurfaceSource } from '../surfaces/surface.ts';
import { ACTION_OPERATIONS, actionSteps, API_KEY_INPUT, BASE_URL_INPUT, ID_OUTPUT, INCIDENT_OUTPUT, inputName, UPDATE_WHEN_GIVEN } from './names.ts';

/**
 * The Action's inputs and outputs, made from the operations it takes: read by the generator
 * (action.yml, README) and by the runtime (which input fills which field), so the two agree.
 */

const words = (text: string) => inStepWords(text, actionSteps);

/**
 * A field's description where the shared help speaks to a no-code editor ("map the Incident ID
 * from the step that created it"): a workflow author writes an expression, and the Action has no
 * "Incident ID" or title output, so the text names the output and the expression that hold them.
 * By operation, then field key; what is absent keeps the shared help.
 */
const ACTION_WORDS: Partial<Record<'create' | 'update', Readonly<Record<string, string>>>> = {
  update: {
    [UPDATE_WHEN_GIVEN]: `The ID of the incident to update instead of creating one: the \`${ID_OUTPUT}\` output of the step that created it (\`steps.<its id>.outputs.${ID_OUTPUT}\`), or from the system that created it. Pagerly cannot list incidents.`,
    title: `The incident's title (up to 255 characters); the service needs it on every update, so pass the current one to keep it (\`fromJSON(steps.<its id>.outputs.${INCIDENT_OUTPUT}).title\`).`,
  },
};

/** The operations the Action takes, from the source given (a copy in tests), in the Action's order. */
export function actionOperations(source: Pick<SurfaceSource, 'operations'>): { create: ActionOperation; update: ActionOperation } {
  const [create, update] = ACTION_OPERATIONS.map((id) => {
    const operation = source.operations.find((op) => op.id === id);
    if (operation?.kind !== 'action') throw new Error(`The GitHub Action takes ${id}, which the descriptions lack`);
    return operation;
  });
  return { create: create!, update: update! };
}

export interface ActionInput {
  readonly name: string;
  /** The operation field it fills, by key (absent for the key and the base URL). */
  readonly field?: string;
  readonly description: string;
  readonly required: boolean;
  readonly default?: string;
}

function choicesSaid(field: InputField): string {
  if (!field.choices?.length) return '';
  const values = field.choices.map((choice) => choice.value).join(', ');
  return field.customValueAllowed ? ` Suggested: ${values}.` : ` One of: ${values}.`;
}

/**
 * The inputs: the key, then every field of the two operations, once each (create's order, then
 * what only the update has), then the base URL. A field whose help differs between creating and
 * updating says both; the field that selects the update says so.
 */
export function actionInputs(source: Pick<SurfaceSource, 'operations'>): ActionInput[] {
  const { create, update } = actionOperations(source);
  const keys = [...new Set([...create.inputFields, ...update.inputFields].map((field) => field.key))];
  const fields = keys.map((key) => {
    const inCreate = create.inputFields.find((field) => field.key === key);
    const inUpdate = update.inputFields.find((field) => field.key === key);
    const field = (inCreate ?? inUpdate)!;
    const createHelp = inCreate && (ACTION_WORDS.create?.[key] ?? words(inCreate.help));
    const updateHelp = inUpdate && (ACTION_WORDS.update?.[key] ?? words(inUpdate.help));
    let description = (createHelp ?? updateHelp)!;
    if (createHelp && updateHelp && createHelp !== updateHelp) description += ` When \`${UPDATE_WHEN_GIVEN}\` is set: ${updateHelp}`;
    if (key === UPDATE_WHEN_GIVEN) description += ' Leave it empty to create a new incident.';
    description += choicesSaid(field);
    // Required only where both operations need it: the Action runs either.
    const required = (inCreate?.required ?? false) && (inUpdate?.required ?? false);
    return { name: inputName(key), field: key, description, required };
  });
  return [
    {
      name: API_KEY_INPUT,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, for the workflow author to copy.
      description: 'Your Pagerly API key: pass a secret (`${{ secrets.PAGERLY_API_KEY }}`). The Action masks it in the log before anything else.',
      required: true,
    },
    ...fields,
    {
      name: BASE_URL_INPUT,
      description: 'The Pagerly API base; change it only for a proxy or a local sandbox.',
      required: false,
      default: DEFAULT_BASE_URL,
    },
  ];
}

export const OUTPUTS = {
  // Empty where the service answered a create with a 2xx but no readable id (assumption
  // `created-id`): the step passes with a warning. An empty `id` makes a later step create a new
  // incident rather than update this one, so the author is told to check it first.
  [ID_OUTPUT]:
    "The ID of the incident created or updated: pass it as `id` to a later step to update or resolve it. Empty (with a warning on the run) when the service accepted the incident but gave no ID; since an empty `id` creates a new incident, guard that step with `if: steps.<its id>.outputs.incident-id != ''`.",
  [INCIDENT_OUTPUT]: 'The incident as the service returned it, as JSON (`fromJSON(steps.<its id>.outputs.incident).status`).',
} as const;
