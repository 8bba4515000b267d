// The words the deploy prints: progress lines, the plan of a dry run, the summary, failures.
import { callText } from './api-paths.ts';
import type { DeployStepError, StepOutcome } from './execute.ts';
import { plannedCalls, stepTitle, type NameOf, type Plan, type Step } from './plan.ts';
import type { DeploySettings } from './settings.ts';

type Target = Pick<DeploySettings, 'zone' | 'appName' | 'appVersion'>;

const counter = (index: number, total: number) => `[${String(index + 1).padStart(String(total).length)}/${total}]`;

export function progressLine(outcome: StepOutcome, index: number, total: number): string {
  const requests = outcome.calls.length === 0 ? 'no request' : outcome.calls.map(callText).join(', ');
  return `${counter(index, total)} ${outcome.action.padEnd(7)} ${outcome.title} (${requests})`;
}

export function planLines(plan: Plan, target: Target, appDir: string, nameOf: NameOf): string[] {
  const app = { name: target.appName, version: target.appVersion };
  return [
    `Dry run: deploying ${appDir} as app ${target.appName} v${target.appVersion} to https://${target.zone}/api/v2 would take these steps (no request is made now):`,
    ...plan.steps.map((step, index) => `${counter(index, plan.steps.length)} ${stepTitle(step)}: ${plannedCalls(step, app, nameOf)}`),
    ...skippedLines(plan),
    `${plan.steps.length} steps. A real deploy records Make's names in origins[0].idMapping of ${appDir}/makecomapp.json.`,
  ];
}

const skippedLines = (plan: Plan): string[] => plan.skipped.map((text) => `Not deployed: ${text}.`);

const kindNames: Record<string, [string, string]> = {
  connection: ['connection', 'connections'],
  rpc: ['RPC', 'RPCs'],
  webhook: ['webhook', 'webhooks'],
  module: ['module', 'modules'],
};

const isSection = (step: Step) => step.kind === 'section' || step.kind === 'app-section' || step.kind === 'app-common' || step.kind === 'app-readme';

export interface Counts {
  requests: number;
  app: string;
  components: Record<string, Partial<Record<string, number>>>;
  sections: number;
}

export function countOutcomes(outcomes: readonly StepOutcome[]): Counts {
  const counts: Counts = { requests: 0, app: 'not reached', components: {}, sections: 0 };
  for (const outcome of outcomes) {
    counts.requests += outcome.calls.length;
    const { step } = outcome;
    if (step.kind === 'app') counts.app = outcome.action;
    else if (isSection(step)) counts.sections += 1;
    else {
      const byAction = (counts.components[step.kind] ??= {});
      byAction[outcome.action] = (byAction[outcome.action] ?? 0) + 1;
    }
  }
  return counts;
}

export function summaryLines(outcomes: readonly StepOutcome[], target: Target, plan: Plan): string[] {
  const counts = countOutcomes(outcomes);
  const parts = [`app ${counts.app}`];
  for (const [kind, [one, many]] of Object.entries(kindNames)) {
    const byAction = counts.components[kind];
    if (!byAction) continue;
    const total = Object.values(byAction).reduce<number>((sum, n) => sum + (n ?? 0), 0);
    const how = Object.entries(byAction).map(([action, n]) => `${n} ${action === 'known' ? 'already deployed' : action}`).join(', ');
    parts.push(`${total} ${total === 1 ? one : many} (${how})`);
  }
  parts.push(`${counts.sections} sections set`);
  return [
    `Deployed app ${target.appName} v${target.appVersion} to ${target.zone} in ${counts.requests} requests: ${parts.join('; ')}.`,
    ...skippedLines(plan),
  ];
}

function hint(error: DeployStepError, target: Target): string | undefined {
  switch (error.status) {
    case undefined:
      return error.call ? `Could not get an answer from https://${target.zone}: check MAKE_ZONE and your network.` : undefined;
    case 401:
      return `Make refused the token: check MAKE_API_TOKEN, and that it was made in the zone ${target.zone}.`;
    case 403:
      return `The token needs the scopes sdk-apps:read and sdk-apps:write, and your account access to app ${target.appName}.`;
    case 404:
      return 'Make does not know that path: check MAKE_APP_NAME and MAKE_APP_VERSION, and that the names in origins[0].idMapping of makecomapp.json still exist in Make.';
    case 429:
      return 'Make is rate-limiting this token: wait a minute and deploy again.';
    default:
      return error.status >= 500 ? 'Make had a problem answering: deploy again in a moment.' : undefined;
  }
}

export function failureLines(error: DeployStepError, target: Target): string[] {
  // Make's sub-errors come as further lines (" - …"), kept under the message.
  const [first = '', ...more] = error.apiMessage.split('\n');
  const answer = error.status ? `Make answered HTTP ${error.status}: ${first}` : first;
  const advice = hint(error, target);
  return [
    `Deploy failed at step ${error.index + 1}/${error.total}: ${error.title}`,
    ...(error.call ? [`  request: ${callText(error.call)}`] : []),
    `  ${answer}`,
    ...more.map((line) => `    ${line.trim()}`),
    ...(advice ? [`  ${advice}`] : []),
    `  ${error.completed.length} earlier steps were done (${countOutcomes(error.completed).requests} requests); origins[0].idMapping in makecomapp.json keeps what they created, so a new deploy continues without duplicates.`,
  ];
}
