// `npm run action:local`: the GitHub Action under @github/local-action (GitHub's own local
// runner for JavaScript actions, with its stand-in for @actions/core), against a sandbox started
// here on loopback: a run that creates an incident must set `incident-id`, a run with a refused
// key must fail the step with the service's text, and neither may print the key in any form.
// local-action runs the action's source (it swaps @actions/core in by module path, which a
// bundle defeats) with the built action.yml; the bundle itself is run as a runner runs it in
// test/github-action/action.test.ts. About 15 s a run, so it is a CI step, not a jest test.
// One line per case with its time; exit 1 on any failure.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAction } from '../../github-action/build-action.ts';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { runDeployJob } from './deploy-workflow.ts';
import { BAD_KEY, printedForms } from './support.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entrypoint = fileURLToPath(new URL('../../github-action/runtime/main.ts', import.meta.url));
const localAction = join(root, 'node_modules/.bin/local-action');

const temp = mkdtempSync(join(tmpdir(), 'pagerly-local-action-'));
const sandbox = await createSandbox();
const failures: string[] = [];

/** One run: the inputs go in a dotenv file (the shell local-action starts through drops `INPUT_API-KEY` from the environment). */
async function localRun(name: string, inputs: Record<string, string>): Promise<{ log: string; ms: number }> {
  const envFile = join(temp, `${name}.env`);
  writeFileSync(
    envFile,
    `${Object.entries(inputs)
      .map(([input, value]) => `INPUT_${input.toUpperCase()}='${value}'`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  const started = performance.now();
  try {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(localAction, ['run', action, entrypoint, envFile], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (_error, stdout, stderr) =>
        resolve({ stdout, stderr }),
      ),
    );
    return { log: stdout + stderr, ms: performance.now() - started };
  } finally {
    rmSync(envFile, { force: true });
  }
}

function check(name: string, ms: number, problems: string[]): void {
  if (problems.length) failures.push(`${name}: ${problems.join('; ')}`);
  console.log(`  ${problems.length ? '✘' : '✔'} ${name.padEnd(58)} ${Math.round(ms)} ms${problems.length ? `\n      ${problems.join('\n      ')}` : ''}`);
}

const leaks = (log: string, key: string) => printedForms(key).filter((form) => log.includes(form));

let action = '';
try {
  action = (await buildAction(join(temp, 'action'))).folder;
  const url = await sandbox.listen();
  console.log('GitHub Action under @github/local-action, against the sandbox');

  const key = demoKeys.acmeAdmin;
  const created = await localRun('create', { 'api-key': key, title: 'Deploy 4512 failed', severity: 'P2', team: 'Platform', 'base-url': url });
  const id = /::set-output name=incident-id::(\S+)/.exec(created.log)?.[1];
  check('creates an incident: incident-id set', created.ms, [
    ...(id && sandbox.world.incidents.has(id) ? [] : [`no incident-id output naming an incident; log:\n${created.log}`]),
    ...leaks(created.log, key).map((form) => `the log holds the key as ${JSON.stringify(form)}`),
  ]);

  const refused = await localRun('bad-key', { 'api-key': BAD_KEY, title: 'Deploy 4513 failed', 'base-url': url });
  const failure = refused.log.split('\n').find((line) => line.startsWith('::error::'));
  check("a refused key fails the step with the service's text", refused.ms, [
    ...(failure?.includes('API Key is not valid') ? [] : [`no ::error:: with the service's text; log:\n${refused.log}`]),
    ...(refused.log.includes('::set-output name=incident-id::') ? ['incident-id was set'] : []),
    ...leaks(refused.log, BAD_KEY).map((form) => `the log holds the key as ${JSON.stringify(form)}`),
  ]);

  // The deploy template's job: fail → opened, fail again → the same one, success → resolved.
  const cache = mkdtempSync(join(temp, 'deploy-'));
  let runs = 0;
  const runAction = async (inputs: Record<string, string>) => {
    const { log } = await localRun(`deploy-${++runs}`, { ...inputs, 'base-url': url });
    if (log.includes('::error::')) throw new Error(`the Action failed: ${log}`);
    return Object.fromEntries([...log.matchAll(/::set-output name=([\w-]+)::(.*)/g)].map((match) => [match[1]!, match[2]!]));
  };
  const started = performance.now();
  const first = await runDeployJob('failure', cache, key, runAction);
  const opened = first.steps['incident']?.outputs['incident-id'] ?? '';
  const second = await runDeployJob('failure', cache, key, runAction);
  const third = await runDeployJob('success', cache, key, runAction);
  const fourth = await runDeployJob('success', cache, key, runAction);
  const incident = sandbox.world.incidents.get(opened) as { status?: string } | undefined;
  check('deploy template: fail, fail again, succeed: one incident, resolved', performance.now() - started, [
    ...(incident ? [] : [`the first failure opened no incident (${JSON.stringify(first.steps['incident'])})`]),
    ...(second.steps['incident']?.outputs['incident-id'] === opened ? [] : ['the second failure did not update the same incident']),
    ...(third.ran.join() === 'resolve' && incident?.status === 'resolved'
      ? []
      : [`the good deploy did not resolve it (ran ${third.ran.join()}, ${incident?.status})`]),
    ...(fourth.ran.length === 0 ? [] : [`the next good deploy ran ${fourth.ran.join()}`]),
  ]);
} catch (error) {
  failures.push(String(error));
  console.log(`  ✘ ${String(error)}`);
} finally {
  await sandbox.close();
  rmSync(temp, { recursive: true, force: true });
}
console.log(failures.length ? `${failures.length} case(s) failed` : 'All cases passed');
process.exitCode = failures.length ? 1 : 0;
