// The words the deploy prints: the plan of a dry run, progress lines, the summary, failures.
import type { Target } from './origin.ts';
import type { Plan } from './plan.ts';
import type { DeployStepError, StepOutcome } from './run.ts';

const counter = (index: number, total: number) => `[${String(index + 1).padStart(String(total).length)}/${total}]`;
const skippedLines = (plan: Plan) => plan.skipped.map((text) => `Not deployed: ${text}.`);
const where = (target: Target) => `app ${target.appName} v${target.appVersion} to https://${target.zone}/api/v2`;

export const planLines = (plan: Plan, target: Target, appDir: string): string[] => [
  `Dry run: deploying ${appDir} as ${where(target)} would take these steps (nothing is sent now):`,
  ...plan.steps.map((step, index) => `${counter(index, plan.steps.length)} ${step.title}`),
  ...skippedLines(plan),
];

export const progressLine = (outcome: StepOutcome, index: number, total: number): string =>
  `${counter(index, total)} ${outcome.action.padEnd(7)} ${outcome.title} (${outcome.calls.map(({ method, path }) => `${method} ${path}`).join(', ') || 'no request'})`;

/** `8 created, 32 set`: how many steps ended how, and the requests they sent. */
export function counts(outcomes: readonly StepOutcome[]): { requests: number; actions: Record<string, number> } {
  const actions: Record<string, number> = {};
  for (const { action } of outcomes) actions[action] = (actions[action] ?? 0) + 1;
  return { requests: outcomes.reduce((sum, outcome) => sum + outcome.calls.length, 0), actions };
}

export function summaryLines(outcomes: readonly StepOutcome[], target: Target, plan: Plan): string[] {
  const { requests, actions } = counts(outcomes);
  const parts = (['created', 'updated', 'found', 'known', 'set'] as const).flatMap((action) =>
    actions[action] ? [`${actions[action]} ${action === 'known' ? 'already deployed' : action}`] : [],
  );
  return [`Deployed ${where(target)} in ${requests} requests: ${parts.join(', ')}.`, ...skippedLines(plan)];
}

function hint({ failure: { status, call } }: DeployStepError, target: Target): string | undefined {
  if (status === undefined)
    return call ? `Could not get an answer from https://${target.zone}: check MAKE_ZONE (the host only, e.g. eu1.make.com) and your network.` : undefined;
  if (status === 401) return `Make refused the token: check MAKE_API_TOKEN, and that it was made in the zone ${target.zone}.`;
  if (status === 403) return `The token needs the scopes sdk-apps:read and sdk-apps:write, and your account access to app ${target.appName}.`;
  if (status === 404)
    return 'Make does not know that path: check MAKE_APP_NAME and MAKE_APP_VERSION, and that the names in the origins file still exist in Make.';
  if (status === 429) return 'Make is rate-limiting this token: wait a minute and deploy again.';
  return status >= 500 ? 'Make had a problem answering: deploy again in a moment.' : undefined;
}

export function failureLines(error: DeployStepError, target: Target, originsFile: string): string[] {
  // Make's sub-errors come as further lines (" - …"), kept under the message.
  const [first = '', ...more] = error.message.split('\n');
  const { index, total, title, call, status, completed } = error.failure;
  const advice = hint(error, target);
  return [
    `Deploy failed at step ${index + 1}/${total}: ${title}`,
    ...(call ? [`  request: ${call.method} ${call.path}`] : []),
    `  ${status ? `Make answered HTTP ${status}: ` : ''}${first}`,
    ...more.map((line) => `    ${line.trim()}`),
    ...(advice ? [`  ${advice}`] : []),
    `  ${completed.length} earlier steps were done (${counts(completed).requests} requests); ${originsFile} keeps the names of what they created, so a new deploy continues without duplicates.`,
  ];
}
