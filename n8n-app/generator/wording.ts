import { inStepWords, operationById, type StepVocabulary } from '../../shared/operations/index.ts';
import { n8nNodeName } from '../operation-names.ts';
/**
 * n8n's wording conventions, which its lint enforces (eslint-plugin-n8n-nodes-base, run by
 * `n8n-node lint`): parameter and option names in title case, an operation's `action` in
 * sentence case, and no final period on a one-sentence description. The shared texts are
 * written once for all platforms; these rules shape them for n8n only.
 */
const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'if', 'in', 'nor', 'of', 'on', 'or', 'per', 'the', 'to', 'via', 'vs', 'with']);

/** "Phone number" → "Phone Number", "P1 (critical)" → "P1 (Critical)", "E-mail" → "E-Mail"; small words stay small. */
export function titleCase(text: string): string {
  let first = true;
  return text.replace(/[A-Za-z][\w']*/g, (word, offset: number) => {
    const isFirst = first;
    first = false;
    const afterHyphen = offset > 0 && text[offset - 1] === '-';
    if (!isFirst && !afterHyphen && SMALL_WORDS.has(word.toLowerCase())) return word.toLowerCase();
    return word[0]!.toUpperCase() + word.slice(1);
  });
}

/** "Change Phone Number" → "Change phone number"; all-capital words (ID, API) are kept. */
export function sentenceCase(text: string): string {
  return text.replace(/[A-Za-z][\w']*/g, (word, offset: number) => {
    if (offset === 0) return word[0]!.toUpperCase() + word.slice(1);
    return word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase();
  });
}

/** One sentence loses its final period; several keep theirs. */
export function description(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z<])/).length;
  return sentences === 1 ? text.replace(/\.$/, '') : text;
}

/** A workflow's steps are nodes, named by the action they run, in quotes. */
export const n8nSteps: StepVocabulary = { step: (id) => `the "${n8nNodeName(operationById(id)).action}" node`, thisStep: 'the node' };

/**
 * The shared texts in n8n's terms, for n8n only (the other platforms keep the shared words):
 * n8n runs nodes, not steps; an optional field sits in a collection, where a field not added
 * is not set, so "leave empty" advice becomes "if not set" and "leave empty to keep" goes (an
 * Update Fields entry not added is kept); and the delete operation outputs `{deleted: true}`,
 * so the shared sentence on its output field goes.
 */
export function n8nWords(text: string): string {
  return inStepWords(text, n8nSteps)
    .replace(/ ?Leave empty to keep [^.]*\./g, '')
    .replace(/\bLeft empty, /g, 'If not set, ')
    .replace(/\bLeave empty for /g, 'If not set, ')
    .replace(/\bFields left empty\b/g, 'Fields not set')
    .replace(/: the node succeeds with [^.]*\./g, '.')
    .trim();
}
