import rootPackage from '../package.json' with { type: 'json' };
import type { OperationId } from '../shared/operations/types.ts';
import type { StepVocabulary } from '../shared/operations/step-mentions.ts';
import { sentenceWords } from '../surfaces/id-words.ts';

/**
 * The Action's public names. Workflows refer to it as `uses: pagerly/incident-action@v1` and
 * to its inputs and outputs by name, so none of these may be renamed once published.
 */
export const ACTION_NAME = 'Pagerly incident';
/** The repository the release pushes dist/action/ to; `uses:` names it. */
export const ACTION_REPOSITORY = 'pagerly/incident-action';
export const ACTION_REPOSITORY_URL = `https://github.com/${ACTION_REPOSITORY}`;
/**
 * The major tag the release moves to each new version (GitHub's convention for actions), which
 * workflows pin: `v` and the major of the version released (.github/workflows/release.yml).
 */
export const ACTION_MAJOR_TAG = `v${rootPackage.version.split('.')[0]}`;

/**
 * The operations the Action takes: a pipeline step raises an incident when a deploy fails and
 * updates it (to resolve it) when it recovers. Reads and the directory have no place in a
 * pipeline step, so the Action is single-purpose rather than one step per operation.
 */
export const ACTION_OPERATIONS = ['createIncident', 'updateIncident'] as const satisfies readonly OperationId[];
export const WHY_ONLY_THESE =
  'a pipeline step raises an incident when a deploy fails and updates it when it recovers; reads and the directory belong to the other surfaces';
/** The operation a run performs: with an `id` it updates that incident, without one it creates. */
export const UPDATE_WHEN_GIVEN = 'id';

export const API_KEY_INPUT = 'api-key';
export const BASE_URL_INPUT = 'base-url';
export const ID_OUTPUT = 'incident-id';
export const INCIDENT_OUTPUT = 'incident';

/**
 * An operation field's input name: kebab-case, as GitHub's own actions name inputs, except where
 * the field key is the API's spelling and a workflow author would write otherwise.
 */
const RENAMED: Readonly<Record<string, string>> = { teamname: 'team' };
export const inputName = (fieldKey: string): string => RENAMED[fieldKey] ?? fieldKey.replace(/_/g, '-');

/** How the Action names an operation: "Create incident (no `id`)", for the README's table and help. */
export const actionLabel = (id: OperationId | string): string =>
  `${sentenceWords(id)} (${id === 'updateIncident' ? `with \`${UPDATE_WHEN_GIVEN}\`` : `without \`${UPDATE_WHEN_GIVEN}\``})`;

/**
 * A workflow names a step by the `id:` its author gives it, so a text points at that step's
 * outputs: "map the title from the outputs of the step that created it".
 */
export const actionSteps: StepVocabulary = {
  step: (id) =>
    id === 'createIncident' ? 'the outputs of the step that created it (`steps.<its id>.outputs`)' : `the step that ran ${sentenceWords(id).toLowerCase()}`,
  thisStep: 'the step',
};
