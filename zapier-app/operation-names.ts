import { inStepWords, operationById, type StepVocabulary } from '../shared/operations/index.ts';
import { retiringNote } from '../shared/operations/retiring.ts';
import type { Operation, OperationId } from '../shared/operations/types.ts';
import { snakeCase, titleWords } from '../surfaces/id-words.ts';

/** How the Zapier app names an operation: its key (snake_case) and its label (title case, integration check D018). */
export interface ZapierName {
  readonly key: string;
  readonly label: string;
  /**
   * Zapier's own description where the shared one says more than Zapier shows: a trigger's is one
   * short sentence, "Triggers when …" (publishing requirements, Triggers); the rest stays in the
   * shared description, which Make and n8n show whole.
   */
  readonly description?: string;
}

/**
 * Public contract: a key is stored in every Zap that uses it, so renaming one breaks users' Zaps.
 * `satisfies` makes a missing or extra operation a type error.
 */
export const zapierNames = {
  listTeams: { key: 'team', label: 'Team' },
  onCallChanged: { key: 'on_call_changed', label: 'On-Call Changed', description: 'Triggers when the people on call for a team change.' },
  createIncident: { key: 'create_incident', label: 'Create Incident' },
  updateIncident: { key: 'update_incident', label: 'Update Incident' },
  createDirectoryEntry: { key: 'create_directory_entry', label: 'Create Directory Entry' },
  updateDirectoryEntry: { key: 'update_directory_entry', label: 'Update Directory Entry' },
  updateDirectoryPhone: { key: 'update_directory_phone', label: 'Update Phone Number' },
  changeDirectoryRole: { key: 'change_directory_role', label: 'Change Role' },
  removeDirectoryEntry: { key: 'remove_directory_entry', label: 'Remove Directory Entry' },
  getOnCallUsers: { key: 'find_on_call_users', label: 'Find Who Is on Call' },
  getDirectoryEntry: { key: 'find_directory_entry', label: 'Find Directory Entry' },
} as const satisfies Record<OperationId, ZapierName>;

/** A Zap's steps are named by their action's label: "the Create Incident step". */
export const zapierSteps: StepVocabulary = { step: (id) => `the ${zapierName(operationById(id)).label} step`, thisStep: 'the step' };
/** A shared text in Zapier's words. */
export const zapierText = (text: string) => inStepWords(text, zapierSteps);

/** The description Zapier shows for an operation: its own wording if it has one, else the shared one. */
export function zapierDescription(operation: Pick<Operation, 'id' | 'description'>): string {
  const name: ZapierName = zapierName(operation);
  return zapierText(name.description ?? operation.description);
}

/**
 * An operation's Zapier names: its entry, or for a description outside the shipped list (which
 * the type check lets through without one) the convention: snake_case key, title-case label.
 */
export function zapierName(operation: Pick<Operation, 'id'>): ZapierName {
  return Object.hasOwn(zapierNames, operation.id) ? zapierNames[operation.id] : { key: snakeCase(operation.id), label: titleWords(operation.id) };
}

/**
 * What the Zap editor shows of an operation (its `display`). A retiring one is `hidden`: Zapier
 * keeps running it in the Zaps that use it and stops listing it for new steps ("Users with that
 * action selected in their existing Zaps would continue to be able to use it":
 * docs.zapier.com/integrations/build/reorder-action); its description says what to use instead,
 * for whoever edits such a Zap.
 */
export function zapierDisplay(operation: Pick<Operation, 'id' | 'description' | 'retiring'>): { label: string; description: string; hidden?: true } {
  const { label } = zapierName(operation);
  const description = zapierDescription(operation);
  const note = retiringNote(operation, zapierSteps.step);
  return note ? { label, description: `${description} ${note}`, hidden: true } : { label, description };
}
