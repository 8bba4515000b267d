// `npm run make:deploy [-- --app-dir dist/make] [--origins FILE] [--dry-run] [--json]`: pushes the
// generated Make custom app to a Make account. Exit codes: 0 done, 1 a request failed, 2 nothing
// was sent (arguments, settings, app folder).
import { parseArgs } from 'node:util';
import { redact } from '../../shared/redact.ts';
import { ORIGINS_FILE } from '../origins.ts';
import { originFor, saveOrigin, setRemote } from './origin.ts';
import { AppFolderError, planDeploy } from './plan.ts';
import { counts, failureLines, planLines, progressLine, summaryLines } from './report.ts';
import { DeployStepError, RecordingMake, runSteps, type StepOutcome } from './run.ts';
import { readSettings, settingsHelp } from './settings.ts';
import type { Deploy } from './step.ts';

export interface IO {
  out(line: string): void;
  err(line: string): void;
}

export const DEFAULT_APP_DIR = 'dist/make';

const USAGE = [
  'Usage: npm run make:deploy -- [--app-dir <folder>] [--origins <file>] [--dry-run] [--json]',
  `  --app-dir <folder>  the generated app (default ${DEFAULT_APP_DIR}, made by \`npm run build\`)`,
  '  --origins <file>    where Make\'s names of the deployed components are kept (default make-app/origins.json: commit it)',
  '  --dry-run           print every step the deploy would take, send nothing (MAKE_API_TOKEN not needed)',
  '  --json              print one JSON document instead of lines',
  'Settings (environment): MAKE_API_TOKEN, MAKE_ZONE (e.g. eu1.make.com), MAKE_APP_NAME, optional MAKE_APP_VERSION (1),',
  '  MAKE_APP_LABEL, MAKE_APP_DESCRIPTION, MAKE_APP_THEME (used when the app is created).',
];

type Env = Readonly<Record<string, string | undefined>>;

export async function main(argv: readonly string[], env: Env, rawIo: IO): Promise<number> {
  // Every line goes through here: the token never reaches the output, whatever a message holds.
  const token = env['MAKE_API_TOKEN']?.trim();
  const io: IO = { out: (line) => rawIo.out(redact(line, [token])), err: (line) => rawIo.err(redact(line, [token])) };
  try {
    return await deploy(argv, env, io);
  } catch (error) {
    // A bug or a local failure (e.g. a code file missing, origins not writable): one line.
    io.err(`make:deploy stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function deploy(argv: readonly string[], env: Env, io: IO): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: [...argv],
      options: {
        'app-dir': { type: 'string', default: DEFAULT_APP_DIR },
        origins: { type: 'string', default: ORIGINS_FILE },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    [(error as Error).message, ...USAGE].forEach((line) => io.err(line));
    return 2;
  }
  if (args.help) {
    USAGE.forEach((line) => io.out(line));
    return 0;
  }
  const { 'app-dir': appDir, origins: originsFile, 'dry-run': dryRun, json } = args;
  const result = readSettings(env, { requireToken: !dryRun });
  if ('problems' in result) {
    settingsHelp(result.problems).forEach((line) => io.err(line));
    return 2;
  }
  const { settings } = result;
  const target = { zone: settings.zone, appName: settings.appName, appVersion: settings.appVersion };
  const origin = originFor(originsFile, target);
  const mapping = origin.idMapping!;
  let plan;
  try {
    const { appLabel: label, appDescription: description, appTheme: theme } = settings;
    plan = planDeploy(appDir, { name: settings.appName, label, ...(description ? { description } : {}), theme, language: 'en', audience: 'global', private: true }, mapping);
  } catch (error) {
    if (!(error instanceof AppFolderError)) throw error;
    io.err(error.message);
    return 2;
  }

  if (dryRun) {
    if (json) io.out(JSON.stringify({ ok: true, dryRun: true, target, steps: plan.steps.map((step) => step.title), skipped: plan.skipped }, null, 2));
    else planLines(plan, target, appDir).forEach((line) => io.out(line));
    return 0;
  }

  // Retries only what Make asks to retry (429 with Retry-After); anything else fails the step.
  const make = new RecordingMake(settings.token, settings.zone, { retry: { onRateLimit: true, onServerError: false, maxRetries: 3 } });
  const save = () => saveOrigin(origin, originsFile, appDir);
  const state: Deploy = {
    make,
    app: { name: settings.appName, version: settings.appVersion },
    mapping,
    remember: (type, local, remote) => {
      setRemote(mapping, type, local, remote);
      save();
    },
    appCreated: false,
    remote: {},
  };
  if (!json) io.out(`Deploying ${appDir} as app ${settings.appName} v${settings.appVersion} to https://${settings.zone}/api/v2 (${plan.steps.length} steps)`);
  let outcomes: StepOutcome[];
  try {
    outcomes = await runSteps(plan.steps, make, state, (outcome, index) => json || io.out(progressLine(outcome, index, plan.steps.length)));
  } catch (error) {
    if (!(error instanceof DeployStepError)) throw error;
    if (state.appCreated) save();
    if (!json) failureLines(error, target, originsFile).forEach((line) => io.err(line));
    else {
      const { index, total, title, call, status, completed } = error.failure;
      io.out(JSON.stringify({ ok: false, target, failed: { step: index + 1, of: total, title, call, status, message: error.message }, counts: counts(completed), idMapping: mapping }, null, 2));
    }
    return 1;
  }
  save();
  if (json) io.out(JSON.stringify({ ok: true, target, steps: outcomes, counts: counts(outcomes), skipped: plan.skipped, idMapping: mapping }, null, 2));
  else [...summaryLines(outcomes, target, plan), `Make's names are in ${originsFile} (commit it) and ${appDir}/makecomapp.json: the next deploy updates this app.`].forEach((line) => io.out(line));
  return 0;
}
