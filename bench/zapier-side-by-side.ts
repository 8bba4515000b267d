// Zapier app definitions side by side, in one process: each one's `team` trigger through
// zapier-platform-core's own handler next to the minimal core app's (bench/minimal-zapier-app.ts),
// the order rotating every round, and core's per-call work on each definition apart
// (`prepareApp`, which core runs twice a call). What to compare is the ratios within one run.
//
//   node bench/zapier-side-by-side.ts name=path/to/zapier-app/index.ts [name=path ...]
//
// A path is an app entry: this checkout's `zapier-app/index.ts`, another commit's
// (`git archive <commit> | tar -x -C /tmp/x && ln -s "$PWD/node_modules" /tmp/x/`), or a
// built bundle (`dist/zapier/index.js`, which turns source maps on for the whole process: run
// it in a process of its own). BENCH_RUNS sets the measured rounds (default 400).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { minimalApp } from './minimal-zapier-app.ts';
import { median } from './stats.ts';

type Handler = (event: object) => Promise<{ results: unknown }>;

const specs = process.argv.slice(2).map((arg) => {
  const [name, path] = arg.split('=');
  if (!name || !path) throw new Error(`expected name=path, got "${arg}"`);
  return { name, path: resolve(path) };
});
if (specs.length === 0) {
  console.error('usage: node bench/zapier-side-by-side.ts name=path/to/zapier-app/index.ts [name=path ...]');
  process.exit(2);
}
const apps: Record<string, object> = { minimal: minimalApp };
for (const { name, path } of specs) {
  const loaded = (await import(pathToFileURL(path).href)) as { default?: object };
  apps[name] = loaded.default ?? (loaded as object);
}
const names = Object.keys(apps);
const runs = Number(process.env.BENCH_RUNS ?? 400);

const require = createRequire(import.meta.url);
const { createAppHandler } = require('zapier-platform-core') as { createAppHandler: (app: object) => Handler };
const { prepareApp } = require('zapier-platform-core/src/tools/schema') as { prepareApp: (app: object) => unknown };

const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
// With LOGGING_TOKEN set, core streams every log line to Zapier's log server: off loopback.
delete process.env.LOGGING_TOKEN;
try {
  const url = await sandbox.listen({ host: '127.0.0.1' });
  process.env.PAGERLY_BASE_URL = url;
  const event = { command: 'execute', method: 'triggers.team.operation.perform', bundle: { authData: { apiKey: demoKeys.acmeAdmin } }, calledFromCli: true };
  const handlers = Object.fromEntries(names.map((name) => [name, createAppHandler(apps[name]!)]));
  const answers = await Promise.all(names.map(async (name) => JSON.stringify((await handlers[name]!(event)).results)));
  if (new Set(answers).size !== 1) throw new Error(`the apps answered differently: ${answers.join(' | ')}`);

  for (let i = 0; i < 30; i++) for (const name of names) await handlers[name]!(event);
  const calls = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  const prepares = Object.fromEntries(names.map((name) => [name, [] as number[]]));
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      let started = performance.now();
      await handlers[name]!(event);
      calls[name]!.push(performance.now() - started);
      started = performance.now();
      prepareApp(apps[name]!);
      prepares[name]!.push((performance.now() - started) * 1000);
    }
  }
  const minimal = median(calls.minimal!);
  const load = (await import('node:os')).loadavg().map((value) => value.toFixed(1));
  console.log(`${runs} rounds, load average ${load.join(' ')}`);
  for (const name of names) {
    const call = median(calls[name]!);
    console.log(
      `  ${name.padEnd(12)} ${call.toFixed(3)} ms a call, ${(call / minimal).toFixed(2)}× the minimal app; core's prepareApp ${median(prepares[name]!).toFixed(0)} µs`,
    );
  }
} finally {
  await sandbox.close();
}
process.exit(0);
