// The migration template (templates/migrate-directory/github-workflow.yml) run step by step as a
// runner runs its job: its shell steps by bash, in a clone of a local bare repository that stands
// in for GitHub's (actions/checkout), with `pagerly` the checkout's own CLI (what the install step
// puts on PATH) and `gh` a stand-in that notes each call and keeps the one pull request's number.
// Only the expressions the template uses are known; any other fails the run, so the template
// cannot drift from what is tested.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Step } from './deploy-workflow.ts';

export const MIGRATE_WORKFLOW = fileURLToPath(new URL('../../templates/migrate-directory/github-workflow.yml', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));

export interface Workflow {
  env: Record<string, string>;
  jobs: { import: { steps: Step[] } };
}

export const migrateWorkflow = (): Workflow => parse(readFileSync(MIGRATE_WORKFLOW, 'utf8')) as Workflow;

/** A `gh` that notes its arguments (one JSON line each) and keeps the open pull request's number in a file. */
const FAKE_GH = `#!/usr/bin/env bash
set -e
printf '%s\\n' "$(node -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' -- "$@")" >> "$GH_LOG"
case "$1 $2" in
  "pr list") cat "$GH_STATE" 2>/dev/null || true ;;
  "pr create") echo 7 > "$GH_STATE"; echo "https://github.com/acme/people/pull/7" ;;
  "pr close") rm -f "$GH_STATE" ;;
  "pr edit") ;;
  *) echo "gh stand-in: unknown command $*" >&2; exit 1 ;;
esac
`;

export interface Repository {
  /** The bare repository that stands in for GitHub's. */
  origin: string;
  /** The folder of one run's files: clones, RUNNER_TEMP, GITHUB_OUTPUT, the gh stand-in's log. */
  work: string;
  ghLog: string;
}

/** A bare repository with a default branch `main` holding a README, and the gh stand-in. */
export function makeRepository(folder: string): Repository {
  const origin = join(folder, 'origin.git');
  const seed = join(folder, 'seed');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' });
  mkdirSync(seed, { recursive: true });
  git(folder, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(seed, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(seed, 'README.md'), 'The on-call directory.\n');
  git(seed, 'add', 'README.md');
  git(seed, '-c', 'user.name=t', '-c', 'user.email=t@acme.example', 'commit', '--quiet', '-m', 'Start');
  git(seed, 'push', '--quiet', origin, 'main');
  const tools = join(folder, 'tools');
  mkdirSync(tools, { recursive: true });
  writeFileSync(join(tools, 'gh'), FAKE_GH);
  writeFileSync(join(tools, 'pagerly'), `#!/usr/bin/env bash\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(tools, 'gh'), 0o755);
  chmodSync(join(tools, 'pagerly'), 0o755);
  return { origin, work: folder, ghLog: join(folder, 'gh.log') };
}

export interface JobRun {
  /** Each step by name or id, and what it did. */
  steps: Record<string, { outcome: 'success' | 'failure' | 'skipped'; outputs: Record<string, string>; stdout: string; stderr: string }>;
  /** The gh stand-in's calls, this run's only. */
  gh: string[][];
}

/**
 * One run of the job: `secrets` and `vars` as the repository has them, `env` over the
 * workflow's own (CUTOVER_DATE, SOURCE...). Steps run until one fails, as a runner runs them.
 */
export async function runMigrateJob(
  repository: Repository,
  run: number,
  options: { secrets: Record<string, string>; vars: Record<string, string>; env?: Record<string, string> },
): Promise<JobRun> {
  const workflow = migrateWorkflow();
  const folder = join(repository.work, `run-${run}`);
  const checkout = join(folder, 'checkout');
  const temp = join(folder, 'temp');
  mkdirSync(temp, { recursive: true });
  const env: Record<string, string> = { ...workflow.env, ...options.env };
  const steps: JobRun['steps'] = {};
  const outputs: Record<string, Record<string, string>> = {};
  const value = (expression: string): string => {
    const path = expression.trim();
    const or = path.split(' || ');
    if (or.length > 1) return or.map(value).find((v) => v !== '') ?? '';
    const secret = /^secrets\.(\w+)$/.exec(path);
    if (secret) return options.secrets[secret[1]!] ?? '';
    const variable = /^vars\.(\w+)$/.exec(path);
    if (variable) return options.vars[variable[1]!] ?? '';
    const fixed: Record<string, string> = {
      'github.token': 'ghs_job_token_stand_in',
      'github.server_url': 'https://github.com',
      'github.repository': 'acme/people',
      'github.run_id': String(4700 + run),
      'runner.temp': temp,
    };
    if (path in fixed) return fixed[path]!;
    const output = /^steps\.(\w+)\.outputs\.(\w+)$/.exec(path);
    if (output) return outputs[output[1]!]?.[output[2]!] ?? '';
    throw new Error(`the migration template uses an expression this run does not know: ${path}`);
  };
  const fill = (text: string) => text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => value(expression));
  const holds = (condition: string | undefined): boolean => {
    if (!condition) return true;
    const compare = /^(\S+) == '(.*)'$/.exec(condition.trim());
    if (!compare) throw new Error(`the migration template has a condition this run does not know: ${condition}`);
    return value(compare[1]!) === compare[2];
  };
  const ghBefore = readLines(repository.ghLog).length;
  let failed = false;
  for (const step of workflow.jobs.import.steps) {
    const name = step.id ?? step.name ?? step.uses ?? '';
    if (failed || !holds(step.if)) {
      steps[name] = { outcome: 'skipped', outputs: {}, stdout: '', stderr: '' };
      continue;
    }
    if (step.uses?.startsWith('actions/checkout@')) {
      // Cloned with the token the step is given: the test checks which one.
      execFileSync('git', ['clone', '--quiet', repository.origin, checkout]);
      steps[name] = { outcome: 'success', outputs: { token: fill(step.with?.['token'] ?? '') }, stdout: '', stderr: '' };
      continue;
    }
    if (step.uses?.startsWith('actions/setup-node@') || step.name === 'Install the Pagerly CLI') {
      // The runner's Node, and the checkout's own CLI on PATH as `pagerly` (makeRepository).
      steps[name] = { outcome: 'success', outputs: {}, stdout: '', stderr: '' };
      continue;
    }
    if (!step.run) throw new Error(`the migration template has a step this run does not know: ${name}`);
    const githubOutput = join(folder, `output-${name}`);
    writeFileSync(githubOutput, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, text]) => [key, fill(String(text))]));
    // Not spawnSync: the stand-ins the import reads run in this process, and must go on answering.
    const result = await bash(fill(step.run), {
      cwd: steps['actions/checkout@v4'] ? checkout : folder,
      env: {
        PATH: `${join(repository.work, 'tools')}:${process.env['PATH']}`,
        HOME: folder,
        GITHUB_OUTPUT: githubOutput,
        GH_LOG: repository.ghLog,
        GH_STATE: join(repository.work, 'gh-open-pr'),
        ...env,
        ...stepEnv,
      },
    });
    const stepOutputs = Object.fromEntries(
      readLines(githubOutput)
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    if (step.id) outputs[step.id] = stepOutputs;
    const outcome = result.status === 0 ? 'success' : 'failure';
    steps[name] = { outcome, outputs: stepOutputs, stdout: result.stdout, stderr: result.stderr };
    if (outcome === 'failure') failed = true;
  }
  return {
    steps,
    gh: readLines(repository.ghLog)
      .slice(ghBefore)
      .map((line) => JSON.parse(line) as string[]),
  };
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** A script by `bash -e -o pipefail`, its output gathered, without blocking this process. */
function bash(script: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
