import { callsOf } from '../shared/operations/calls.ts';
import { inStepWords, operationById, type StepVocabulary } from '../shared/operations/index.ts';
import type { Operation } from '../shared/operations/types.ts';
import type { SurfaceSource } from '../surfaces/surface.ts';

/**
 * How the client shows an operation: the methods it calls, which are the catalog's keys (public
 * contract, as the catalog's keys are), and a label that writes the calls out:
 * "pagerly.getDirectoryEntry(), then pagerly.upsertDirectoryEntry()". A hook trigger is no
 * method: the client answers calls and has nothing to subscribe with.
 */
export function clientName(operation: Operation): { names: string[]; label?: string } {
  const methods = callsOf(operation);
  if (methods.length === 0) return { names: [] };
  return { names: methods, label: methods.map((method) => `pagerly.${method}()`).join(', then ') };
}

/** Code calls methods: "the result of pagerly.createOrUpdateIncident()". */
export const clientSteps: StepVocabulary = {
  step: (id) => {
    const { label } = clientName(operationById(id));
    return label ? `the result of ${label}` : 'the on-call trigger of a no-code platform';
  },
  thisStep: 'the call',
};

/**
 * The client package's OPERATIONS.md: each operation of the apps as client calls, its
 * description and its fields' help in the client's words, so code can do what a Zap does.
 */
export function operationsPage({ operations }: SurfaceSource): string {
  const words = (text: string) => inStepWords(text, clientSteps);
  const lines = [
    '# Operations as client calls',
    '',
    'What each operation of the Zapier, Make and n8n apps calls, with `pagerly = createClient({ apiKey })`.',
    '',
  ];
  for (const operation of operations) {
    const { label } = clientName(operation);
    if (!label) continue;
    lines.push(`## \`${operation.id}\`: ${label}`, '', words(operation.description), '');
    for (const field of operation.inputFields) lines.push(`- \`${field.key}\`${field.required ? ' (required)' : ''}: ${words(field.help)}`);
    if (operation.inputFields.length) lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
