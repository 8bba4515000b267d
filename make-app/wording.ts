import { inStepWords, operationById, operations, type StepVocabulary } from '../shared/operations/index.ts';
import type { Operation, OperationId } from '../shared/operations/types.ts';
import { makeName } from './operation-names.ts';

/**
 * Make's wording of the shared texts. The shared catalog writes labels in title case, as Zapier
 * and n8n do, and marks where it names a step (shared/operations/step-mentions.ts); Make asks for sentence case ("Capitalize only the first word
 * and proper nouns", developers.make.com/custom-apps-documentation/best-practices/naming-conventions/output-labels;
 * its parameter example is "Product API key") and calls each part of a scenario a module. The
 * mapping lives here, so the shared text stays the one text every platform starts from.
 */

/** Words that keep their capitals inside a sentence-case label. */
export const PROPER_NOUNS: ReadonlySet<string> = new Set(['Pagerly', 'Make', 'Zapier', 'Slack']);

/** An acronym or code ("API", "ID", "URL", "P1"): two or more characters, no lower-case letter. */
export const isAcronym = (word: string) => /^[A-Z0-9]{2,}s?$/.test(word.replace(/[^A-Za-z0-9]/g, ''));

/** "Created At" → "Created at", "On Call Now: E-mails" → "On call now: e-mails", "API Key" → "API key". */
export function sentenceCase(label: string): string {
  return label
    .split(' ')
    .map((word, index) => (index === 0 || PROPER_NOUNS.has(word) || isAcronym(word) ? word : word.charAt(0).toLowerCase() + word.slice(1)))
    .join(' ');
}

/** Every multi-word output label of the catalog, as a text mentions it ("Removed Now false"). */
function outputLabels(list: readonly Operation[]): string[] {
  const labels = new Set<string>();
  const add = (fields: readonly { label: string; spec?: readonly { label: string }[] }[]) => {
    for (const field of fields) {
      if (field.label.includes(' ')) labels.add(field.label);
      if (field.spec) add(field.spec);
    }
  };
  for (const operation of list) add(operation.outputFields);
  // Longest first, so "On Call Now: Names" is taken before "On Call Now".
  return [...labels].sort((a, b) => b.length - a.length);
}
const LABELS = outputLabels(operations);

/** A scenario's steps are modules, named by their label: "the Create an incident module". */
export const makeSteps: StepVocabulary = { step: (id) => `the ${makeName(operationById(id)).label} module`, thisStep: 'the module' };

/**
 * A shared help or description in Make's words: its steps are modules, an output label is
 * quoted in sentence case.
 */
export function makeText(text: string): string {
  let said = inStepWords(text, makeSteps);
  for (const label of LABELS) said = said.split(label).join(sentenceCase(label));
  return said;
}

/**
 * The first sentence of a module's description as Make's module-descriptions page words it for
 * the module's type (developers.make.com/custom-apps-documentation/best-practices/naming-conventions/modules/module-descriptions):
 * a search "Returns a list of ...", a get "Returns information about a specific ...". The rest
 * of the shared description follows it unchanged.
 */
const LEADS: Partial<Record<OperationId, string>> = {
  getOnCallUsers: 'Returns a list of the people on call right now for one team, each with their team.',
  getDirectoryEntry: 'Returns information about a specific person in the on-call directory, found by e-mail: their name, phone number and role.',
};

/** Everything after the first sentence of a shared description. */
const afterFirstSentence = (text: string) => text.replace(/^.*?\.(\s+|$)/, '');

/** A description of an operation in Make's words: the lead of its type, then the rest in Make's words. */
export function makeDescriptionOf(id: OperationId, description: string): string {
  const lead = Object.hasOwn(LEADS, id) ? LEADS[id] : undefined;
  return makeText(lead === undefined ? description : [lead, afterFirstSentence(description)].filter(Boolean).join(' '));
}

/** A module's description in Make's words. */
export const makeDescription = (operation: Operation): string => makeDescriptionOf(operation.id, operation.description);
