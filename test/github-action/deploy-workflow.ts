// The deploy template (templates/failed-deploy-incident/github-workflow.yml) run step by step as
// a runner would for one deploy outcome: its shell steps by bash in a work folder that stands in
// for the cached `.pagerly-incident` (restore/save of one branch's newest entry), its Pagerly
// steps by `runAction` (the Action under @github/local-action), each `with:` value filled from
// the workflow's own expressions. Only the expressions the template uses are known; any other
// fails the run, so the template cannot drift from what is tested.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const DEPLOY_WORKFLOW = fileURLToPath(new URL('../../templates/failed-deploy-incident/github-workflow.yml', import.meta.url));

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
}

export const deployJob = (): Job => (parse(readFileSync(DEPLOY_WORKFLOW, 'utf8')) as { jobs: { deploy: Job } }).jobs.deploy;

const github: Record<string, string> = {
  'github.repository': 'acme/shop',
  'github.ref_name': 'main',
  'github.server_url': 'https://github.com',
  'github.run_id': '4711',
  'github.run_attempt': '1',
};

/** A step's outcome and outputs, as `steps.<id>.…` reads them. */
type Steps = Record<string, { outcome: string; outputs: Record<string, string> }>;

function value(expression: string, context: { steps: Steps; env: Record<string, string>; apiKey: string }): string {
  const path = expression.trim();
  if (path === 'secrets.PAGERLY_API_KEY') return context.apiKey;
  if (path in github) return github[path]!;
  const env = /^env\.(\w+)$/.exec(path);
  if (env) return context.env[env[1]!] ?? '';
  const step = /^steps\.([\w-]+)\.(outcome|outputs\.([\w-]+))$/.exec(path);
  if (step) {
    const ran = context.steps[step[1]!];
    return step[3] ? (ran?.outputs[step[3]] ?? '') : (ran?.outcome ?? 'skipped');
  }
  throw new Error(`the deploy template uses an expression this run does not know: ${path}`);
}

const fill = (text: string, context: Parameters<typeof value>[1]) => text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => value(expression, context));

/** Whether a step runs: the template's conditions, by the job's state so far. */
function runs(step: Step, failed: boolean, context: Parameters<typeof value>[1]): boolean {
  const condition = step.if?.trim();
  if (!condition) return !failed;
  if (condition === 'always()') return true;
  const [status, ...rest] = condition.split(' && ');
  const statusHolds = status === 'failure()' ? failed : status === 'success()' ? !failed : undefined;
  if (statusHolds === undefined) throw new Error(`the deploy template has a condition this run does not know: ${condition}`);
  return (
    statusHolds &&
    rest.every((part) => {
      const compare = /^(\S+) (==|!=) '(.*)'$/.exec(part);
      if (!compare) throw new Error(`the deploy template has a condition this run does not know: ${condition}`);
      const left = value(compare[1]!, context);
      return compare[2] === '==' ? left === compare[3] : left !== compare[3];
    })
  );
}

/**
 * One run of the job where the deploy ends in `deploy`; `folder` holds `.pagerly-incident` from
 * run to run (the cache). Returns the Pagerly steps that ran, with their outputs.
 */
export async function runDeployJob(
  deploy: 'success' | 'failure',
  folder: string,
  apiKey: string,
  runAction: (inputs: Record<string, string>) => Promise<Record<string, string>>,
): Promise<{ ran: string[]; steps: Steps }> {
  const job = deployJob();
  const steps: Steps = {};
  const context = { steps, env: {} as Record<string, string>, apiKey };
  for (const [name, text] of Object.entries(job.env ?? {})) context.env[name] = fill(text, context);
  let failed = false;
  const ran: string[] = [];
  for (const step of job.steps) {
    if (!runs(step, failed, context)) {
      if (step.id) steps[step.id] = { outcome: 'skipped', outputs: {} };
      continue;
    }
    let outcome = 'success';
    const outputs: Record<string, string> = {};
    if (step.uses?.startsWith('pagerly/incident-action@')) {
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([input, text]) => [input, fill(String(text), context)]));
      Object.assign(outputs, await runAction(inputs));
      ran.push(step.id ?? step.name ?? '');
    } else if (step.id === 'deploy') {
      outcome = deploy;
    } else if (step.run) {
      const output = join(folder, 'github-output');
      writeFileSync(output, '');
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, text]) => [name, fill(text, context)]));
      execFileSync('bash', ['-e', '-c', fill(step.run, context)], { cwd: folder, env: { PATH: process.env['PATH'], GITHUB_OUTPUT: output, ...env } });
      for (const line of readFileSync(output, 'utf8').split('\n'))
        if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
    // actions/checkout and the cache steps: the work folder is the checkout and the cache.
    if (step.id) steps[step.id] = { outcome, outputs };
    if (outcome === 'failure') failed = true;
  }
  return { ran, steps };
}
