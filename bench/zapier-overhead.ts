// Part 3: what one request costs through the Zapier app run by zapier-platform-core's own
// handler, and through the typed Node client, next to the same request made with plain got.
// Run sequentially, one request at a time: this is per-request overhead, not throughput.
import { createRequire } from 'node:module';
import got from 'got';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { createNodeClient } from '../shared/node-client.ts';
import App from '../zapier-app/index.ts';
import { median, percentile, round } from './stats.ts';

export interface OverheadSettings {
  runs: number;
  warmupRuns: number;
}

interface Timing {
  medianMs: number;
  p90Ms: number;
}

export interface OverheadFigures {
  settings: OverheadSettings;
  request: string;
  got: Timing;
  zapier: Timing;
  /** A minimal zapier-platform-core app: one trigger doing the same `z.request`, through the same handler. */
  minimalZapier: Timing;
  nodeClient: Timing;
  /** Medians divided by plain got's, and the app's by the minimal app's. */
  ratios: { zapierOverGot: number; zapierOverMinimal: number; nodeClientOverGot: number };
  /** Per call, what core's prepareApp (run twice per call by createLambdaHandler) costs for each app's definition. */
  prepareAppMs: { app: number; minimal: number };
  problems: string[];
}

type Handler = (event: object) => Promise<{ results: unknown }>;

export async function measureZapierOverhead(settings: OverheadSettings): Promise<OverheadFigures> {
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
  const saved = { baseUrl: process.env.PAGERLY_BASE_URL, loggingToken: process.env.LOGGING_TOKEN };
  // With LOGGING_TOKEN set, core streams every log line to Zapier's log server: off loopback.
  delete process.env.LOGGING_TOKEN;
  try {
    const url = await sandbox.listen({ host: '127.0.0.1' });
    const apiKey = demoKeys.acmeAdmin;
    const teamsUrl = `${url}/pagerly/o/zapier/allteams`;
    // The app reads its base from the environment on every call (zapier-app/pagerly-client.ts).
    process.env.PAGERLY_BASE_URL = url;

    // As scripts/main-job/zapier-runtime.ts does: createAppHandler is exported at runtime but
    // missing from core's type declarations. The source app, not dist/, so no build is needed.
    const require = createRequire(import.meta.url);
    const { createAppHandler } = require('zapier-platform-core') as { createAppHandler: (app: object) => Handler };
    const handler = createAppHandler(App);
    const minimal = createAppHandler(minimalApp(teamsUrl));
    const client = createNodeClient({ apiKey, baseUrl: url });
    // calledFromCli: as `zapier-platform invoke` runs it; without it core prints memory lines.
    const event = { command: 'execute', method: 'triggers.team.operation.perform', bundle: { authData: { apiKey } }, calledFromCli: true };

    const ways: Record<'got' | 'zapier' | 'minimalZapier' | 'nodeClient', () => Promise<unknown>> = {
      got: () => got(teamsUrl, { headers: { 'x-apikey': apiKey } }).json(),
      zapier: async () => (await handler(event)).results,
      minimalZapier: async () => (await minimal(event)).results,
      nodeClient: () => client.listTeams(),
    };
    const names = Object.keys(ways) as (keyof typeof ways)[];

    // All three must give the same teams, or the timings compare different work.
    const problems: string[] = [];
    const answers = await Promise.all(names.map(async (name) => JSON.stringify(await ways[name]())));
    if (new Set(answers).size !== 1) problems.push(`the ways answered differently: ${answers.join(' | ')}`);
    const expected = answers[0];

    for (let i = 0; i < settings.warmupRuns; i++) for (const name of names) await ways[name]();

    // Rotating the order each round spreads drift (GC, JIT, other load) over all three evenly.
    const samples: Record<keyof typeof ways, number[]> = { got: [], zapier: [], minimalZapier: [], nodeClient: [] };
    let wrong = 0;
    for (let i = 0; i < settings.runs; i++) {
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length] as keyof typeof ways;
        const started = performance.now();
        const answer = await ways[name]();
        samples[name].push(performance.now() - started);
        if (JSON.stringify(answer) !== expected) wrong += 1;
      }
    }
    if (wrong) problems.push(`${wrong} answers differed from the first one`);

    const timing = (values: number[]): Timing => ({ medianMs: round(median(values)), p90Ms: round(percentile(values, 90)) });
    const figures = {
      got: timing(samples.got),
      zapier: timing(samples.zapier),
      minimalZapier: timing(samples.minimalZapier),
      nodeClient: timing(samples.nodeClient),
    };
    return {
      settings,
      request: `GET ${teamsUrl.replace(url, '<sandbox>')} with X-APIKEY`,
      ...figures,
      ratios: {
        zapierOverGot: round(figures.zapier.medianMs / figures.got.medianMs, 2),
        zapierOverMinimal: round(figures.zapier.medianMs / figures.minimalZapier.medianMs, 2),
        nodeClientOverGot: round(figures.nodeClient.medianMs / figures.got.medianMs, 2),
      },
      prepareAppMs: { app: prepareAppCost(App), minimal: prepareAppCost(minimalApp(teamsUrl)) },
      problems,
    };
  } finally {
    restoreEnv('PAGERLY_BASE_URL', saved.baseUrl);
    restoreEnv('LOGGING_TOKEN', saved.loggingToken);
    await sandbox.close();
  }
}

/**
 * The smallest app that does the same work: one trigger, the same `z.request` with the key in
 * X-APIKEY, the parsed teams returned. What is left between it and ours is our own code and
 * the size of our definition, which core compiles on every call.
 */
function minimalApp(teamsUrl: string) {
  const require = createRequire(import.meta.url);
  const { version } = require('zapier-platform-core') as { version: string };
  return {
    version: '1.0.0',
    platformVersion: version,
    triggers: {
      team: {
        key: 'team',
        noun: 'Team',
        display: { label: 'Team', description: 'Lists the teams.' },
        operation: {
          perform: async (z: { request: (options: object) => Promise<{ data: unknown }> }, bundle: { authData: { apiKey: string } }) =>
            (await z.request({ url: teamsUrl, headers: { 'X-APIKEY': bundle.authData.apiKey } })).data,
        },
      },
    },
  };
}

/** Milliseconds of one core `prepareApp` (deep copy, compile, deep freeze) of `app`, over 500 runs. */
function prepareAppCost(app: object): number {
  const require = createRequire(import.meta.url);
  const schemaTools = require(require.resolve('zapier-platform-core').replace(/index\.js$/, 'src/tools/schema.js')) as { prepareApp: (app: object) => unknown };
  const runs = 500;
  const started = performance.now();
  for (let i = 0; i < runs; i++) schemaTools.prepareApp(app);
  return round((performance.now() - started) / runs, 3);
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
