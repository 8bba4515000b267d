// `npm start`: the main job. Builds the apps, starts the sandbox on a free loopback port,
// runs every operation of the built Zapier app (zapier-platform-core's runtime), of the built
// Make app (the runner) and, when the n8n engine is cached, of the built n8n package (the real
// n8n engine) against it, including a live on-call change delivered through the Zapier and
// Make hooks, prints a report, stops what it started, and exits 1 if anything failed.
import { fileURLToPath } from 'node:url';
import { buildMakeApp } from '../../make-app/build-make-app.ts';
import { appFromFolder } from '../../make-app/interpreter/runner/app-folder.ts';
import { makeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { createSandbox } from '../../sandbox/index.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { buildZapierApp } from '../../zapier-app/packaging/build-zapier-app.ts';
import { startHookReceiver } from './hook-receiver.ts';
import { makeSteps } from './make-steps.ts';
import { N8N_NOT_CACHED, n8nSteps } from './n8n-steps.ts';
import { printHeading, printResult, printSummary, showRunning } from './report.ts';
import { runStep, type Step, type StepResult } from './step.ts';
import { loadBuiltZapierApp } from './zapier-runtime.ts';
import { zapierSteps } from './zapier-steps.ts';

const HOUR = 3_600_000;
const started = performance.now();
const results: StepResult[] = [];

async function runAll(heading: string, steps: readonly Step[]) {
  printHeading(heading);
  for (const step of steps) {
    showRunning(step);
    const result = await runStep(step);
    results.push(result);
    printResult(result);
  }
}

console.log('Pagerly connectors: every operation of the Zapier, Make and n8n apps, end to end on the embedded sandbox');
let zapierBundle = '';
let makeFolder = '';
await runAll('Build', [
  {
    platform: 'Zapier',
    operation: 'build',
    calls: 'esbuild + zapier-platform validate/build',
    run: async () => {
      const zapier = await buildZapierApp();
      zapierBundle = fileURLToPath(new URL('../../dist/zapier/index.js', import.meta.url));
      return `build.zip ${(zapier.zip.bytes / 1024).toFixed(0)} KB (bundle ${(zapier.bundleBytes / 1024).toFixed(0)} KB), loads, validates${zapier.reused ? ' (unchanged: last zip kept)' : ''}`;
    },
  },
  {
    platform: 'Make',
    operation: 'build',
    calls: 'generator → dist/make',
    run: async () => {
      const make = buildMakeApp();
      makeFolder = make.folder;
      return `${make.files} files, ${(make.bytes / 1024).toFixed(0)} KB`;
    },
  },
]);

const sandbox = await createSandbox({ clock: { mode: 'fixed' }, delivery: { timeoutMs: 2_000, retryDelaysMs: [100, 500] } });
const receiver = await startHookReceiver();
try {
  const url = await sandbox.listen();
  console.log(`\nSandbox at ${url} (clock ${sandbox.clock.now().toISOString()}); hooks delivered to ${receiver.url('/')}`);
  process.env.PAGERLY_BASE_URL = url; // the Zapier app reads its base from the environment
  const zapier = zapierSteps(loadBuiltZapierApp(zapierBundle), receiver);
  const make = makeSteps(makeRunner(appFromFolder(makeFolder), { origin: { from: DEFAULT_BASE_URL, to: url } }), receiver);

  await runAll('Zapier app (dist/zapier/index.js through zapier-platform-core)', zapier.before);
  await runAll('Make app (dist/make through the runner)', make.before);
  const n8n = n8nSteps(url);
  if (n8n) await runAll('n8n package (dist/n8n on the n8n engine, from the cache)', n8n);
  else console.log(`\n${N8N_NOT_CACHED}`);
  await runAll('A live on-call change', [
    {
      platform: 'Sandbox',
      operation: 'clock → 09:00 handover',
      calls: 'rotation change → hook deliveries',
      run: async () => {
        await sandbox.clock.advance(HOUR);
        await sandbox.deliveries.idle();
        const delivered = sandbox.deliveries.log.filter((attempt) => attempt.outcome === 'delivered');
        return `${delivered.length} deliveries (${[...new Set(delivered.map((d) => d.eventId))].join(', ')}) to ${receiver.deliveries.length} hook calls`;
      },
    },
    ...zapier.after,
    ...make.after,
    {
      platform: 'Sandbox',
      operation: 'nothing left behind',
      calls: 'subscriptions of every organization',
      run: async () => {
        const left = sandbox.world.subscriptions.size;
        if (left) throw new Error(`${left} subscriptions still registered`);
        return 'no subscription left';
      },
    },
  ]);
} finally {
  await receiver.close();
  await sandbox.close();
}
printSummary(results, (performance.now() - started) / 1000);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
