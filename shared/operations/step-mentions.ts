import type { OperationId } from './types.ts';

/**
 * How a shared text names a step of the user's workflow: another operation's
 * (`stepOf('createIncident')`: "map the Incident ID from the Create Incident step") or the one
 * the text describes (`THIS_STEP`). Every platform has its own word and its own name for it: a
 * Zap's step "Create Incident", a Make module "Create an incident", an n8n node's action
 * "Create an incident", an MCP tool `create_incident`. The shared text carries a marker instead
 * of guessing one platform's wording, and each surface writes the marker out once, through
 * `inStepWords` with its vocabulary, from its own name map: no surface reads names back out of
 * prose.
 */
const OPEN = '⟦';
const CLOSE = '⟧';
const MARKER = /⟦(\w+)⟧/g;
const THIS = 'this';

/** The step of another operation, as a shared text names it. */
export const stepOf = (id: OperationId): string => `${OPEN}${id}${CLOSE}`;
/** The step the text itself describes ("the step succeeds with ..."). */
export const THIS_STEP = `${OPEN}${THIS}${CLOSE}`;

/** A platform's words for steps: `step` is given the id of the operation a text names. */
export interface StepVocabulary {
  /** "the Create Incident step", 'the "Create an incident" node' (`operationById` finds the operation). */
  readonly step: (id: string) => string;
  /** "the step", "the module", "the node". */
  readonly thisStep: string;
}

/** Whether a text still holds a marker: a surface that wrote a shared text without `inStepWords`. */
export const hasStepMarker = (text: string): boolean => text.includes(OPEN) || text.includes(CLOSE);

/** A shared text with its step markers in one platform's words. */
export function inStepWords(text: string, words: StepVocabulary): string {
  return text.replace(MARKER, (_, id: string) => (id === THIS ? words.thisStep : words.step(id)));
}
