// Part 3: what one request costs through the Zapier app run by zapier-platform-core's own
// handler, next to a minimal core app making the same z.request through the same handler (so
// the difference is the app's own work), the typed Node client, and plain got.
// Run sequentially, one request at a time: this is per-request overhead, not throughput.
import { createRequire } from 'node:module';
import got from 'got';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { createNodeClient } from '../shared/node-client.ts';
import App from '../zapier-app/index.ts';
import { compiledOnce } from './core-compile-once.ts';
import { minimalApp, TEAMS_PATH, teamsPerform } from './minimal-zapier-app.ts';
import { median, percentile, round } from './stats.ts';

/** The aim for the app's per-call cost over the minimal app's (docs/benchmarks.md says why it is not met). */
export const ZAPIER_OVER_MINIMAL_AIM = 1.1;

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
  minimalZapier: Timing;
  /** The minimal app's request, with the app's `merge: false`, inside the app's full definition. */
  appDefinitionMinimalPerform: Timing;
  /** The same with only the app's authentication and two triggers: the difference is what core's per-call work on the rest of the definition costs. */
  appTriggersMinimalPerform: Timing;
  /** The app itself on core that compiles a definition once, not twice per call (bench/core-compile-once.ts). */
  zapierCompiledOnce: Timing;
  nodeClient: Timing;
  /** Medians divided by plain got's, and the app's over the minimal core app's (its own cost). */
  ratios: {
    zapierOverGot: number;
    minimalZapierOverGot: number;
    zapierOverMinimal: number;
    appDefinitionOverMinimal: number;
    appTriggersOverMinimal: number;
    /** The app on core compiling its definition once ÷ the minimal app on core as it is. */
    zapierCompiledOnceOverMinimal: number;
    nodeClientOverGot: number;
  };
  definition: DefinitionBudget;
  problems: string[];
}

/**
 * How the definition's size sets the per-call cost: core deep-copies, compiles and freezes the
 * whole definition twice on every call (create-lambda-handler.js), so the cost grows by about
 * the same time per value. From that time and the minimal app's own median: how many values a
 * definition may hold within the aim, next to how many the app has.
 */
export interface DefinitionBudget {
  /** Every object, list, text, number and function in the definition, at each place it stands (a list two operations share counts twice). */
  values: { app: number; appTriggers: number; minimal: number };
  /** (the app's definition − its authentication and triggers alone, same perform) ÷ the values between them. */
  coreMicrosecondsPerValue: number;
  /** What core's per-call work on the app's whole definition costs at that rate. */
  appDefinitionMs: number;
  /** The most values a definition could hold within the aim × the minimal app, were its perform free. */
  valuesWithinAim: number;
  aim: number;
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
    const teamsUrl = `${url}${TEAMS_PATH}`;
    // The app reads its base from the environment on every call (zapier-app/pagerly-client.ts).
    process.env.PAGERLY_BASE_URL = url;

    // As scripts/main-job/zapier-runtime.ts does: createAppHandler is exported at runtime but
    // missing from core's type declarations. The source app, not dist/, so no build is needed.
    const require = createRequire(import.meta.url);
    const { createAppHandler } = require('zapier-platform-core') as { createAppHandler: (app: object) => Handler };
    const handler = createAppHandler(App);
    const minimalHandler = createAppHandler(minimalApp);
    // core deep-copies, compiles and freezes the whole definition on every call (create-lambda-
    // handler.js, twice): two definitions with the same minimal request (with the app's
    // `merge: false`) separate that cost from the app's own code.
    const minimalPerform = teamsPerform({ merge: false });
    const definitionHandler = createAppHandler(withTeamPerform(App, minimalPerform));
    const triggersOnly = withTeamPerform({ ...App, creates: {}, searches: {}, searchOrCreates: {} }, minimalPerform);
    const triggersHandler = createAppHandler(triggersOnly);
    const client = createNodeClient({ apiKey, baseUrl: url });

    // calledFromCli: as `zapier-platform invoke` runs it; without it core prints memory lines.
    const teamTrigger = { command: 'execute', method: 'triggers.team.operation.perform', bundle: { authData: { apiKey } }, calledFromCli: true };
    const ways: Record<
      'got' | 'zapier' | 'minimalZapier' | 'appDefinitionMinimalPerform' | 'appTriggersMinimalPerform' | 'zapierCompiledOnce' | 'nodeClient',
      () => Promise<unknown>
    > = {
      got: () => got(teamsUrl, { headers: { 'x-apikey': apiKey } }).json(),
      zapier: async () => (await handler(teamTrigger)).results,
      minimalZapier: async () => (await minimalHandler(teamTrigger)).results,
      appDefinitionMinimalPerform: async () => (await definitionHandler(teamTrigger)).results,
      appTriggersMinimalPerform: async () => (await triggersHandler(teamTrigger)).results,
      zapierCompiledOnce: async () => (await compiledOnce(() => handler(teamTrigger))).results,
      nodeClient: () => client.listTeams(),
    };
    const names = Object.keys(ways) as (keyof typeof ways)[];

    // All three must give the same teams, or the timings compare different work.
    const problems: string[] = [];
    const answers = await Promise.all(names.map(async (name) => JSON.stringify(await ways[name]())));
    if (new Set(answers).size !== 1) problems.push(`the ways answered differently: ${answers.join(' | ')}`);
    const expected = answers[0];

    for (let i = 0; i < settings.warmupRuns; i++) for (const name of names) await ways[name]();

    // Rotating the order each round spreads drift (GC, JIT, other load) over all the ways evenly.
    const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<keyof typeof ways, number[]>;
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
      appDefinitionMinimalPerform: timing(samples.appDefinitionMinimalPerform),
      appTriggersMinimalPerform: timing(samples.appTriggersMinimalPerform),
      zapierCompiledOnce: timing(samples.zapierCompiledOnce),
      nodeClient: timing(samples.nodeClient),
    };
    return {
      settings,
      request: `GET ${teamsUrl.replace(url, '<sandbox>')} with X-APIKEY`,
      ...figures,
      ratios: {
        zapierOverGot: round(figures.zapier.medianMs / figures.got.medianMs, 2),
        minimalZapierOverGot: round(figures.minimalZapier.medianMs / figures.got.medianMs, 2),
        // Median of the app over median of the minimal app, both run by the same core handler.
        zapierOverMinimal: round(figures.zapier.medianMs / figures.minimalZapier.medianMs, 2),
        appDefinitionOverMinimal: round(figures.appDefinitionMinimalPerform.medianMs / figures.minimalZapier.medianMs, 2),
        appTriggersOverMinimal: round(figures.appTriggersMinimalPerform.medianMs / figures.minimalZapier.medianMs, 2),
        zapierCompiledOnceOverMinimal: round(figures.zapierCompiledOnce.medianMs / figures.minimalZapier.medianMs, 2),
        nodeClientOverGot: round(figures.nodeClient.medianMs / figures.got.medianMs, 2),
      },
      definition: definitionBudget({ app: countValues(App), appTriggers: countValues(triggersOnly), minimal: countValues(minimalApp) }, figures),
      problems,
    };
  } finally {
    restoreEnv('PAGERLY_BASE_URL', saved.baseUrl);
    restoreEnv('LOGGING_TOKEN', saved.loggingToken);
    await sandbox.close();
  }
}

function definitionBudget(
  values: DefinitionBudget['values'],
  figures: Record<'minimalZapier' | 'appDefinitionMinimalPerform' | 'appTriggersMinimalPerform', Timing>,
): DefinitionBudget {
  const perValueMs = (figures.appDefinitionMinimalPerform.medianMs - figures.appTriggersMinimalPerform.medianMs) / (values.app - values.appTriggers);
  const allowedMs = (ZAPIER_OVER_MINIMAL_AIM - 1) * figures.minimalZapier.medianMs;
  return {
    values,
    coreMicrosecondsPerValue: round(perValueMs * 1000, 2),
    appDefinitionMs: round(perValueMs * values.app, 2),
    // Noise can make the difference vanish: then no budget can be read from this run.
    valuesWithinAim: perValueMs > 0 ? Math.floor(allowedMs / perValueMs) : Number.NaN,
    aim: ZAPIER_OVER_MINIMAL_AIM,
  };
}

/** Every value in a definition, as core's deep copy visits them: objects, lists, and what they hold. */
export function countValues(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + Object.values(value).reduce((sum: number, inner) => sum + countValues(inner), 0);
}

/** The app with its `team` trigger's perform swapped; every other part of the definition as it is. */
function withTeamPerform(app: typeof App, perform: unknown): object {
  const team = app.triggers.team!;
  return { ...app, triggers: { ...app.triggers, team: { ...team, operation: { ...team.operation, perform } } } };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
