// `npm run make:deploy [-- --app-dir dist/make] [--dry-run] [--json]`: pushes the generated Make
// custom app to a Make account. Exit codes: 0 done, 1 a request failed, 2 nothing was sent
// (bad arguments or settings, no app folder).
import { Make } from '@makehq/sdk';
import { AppFolderError, readAppFolder, type AppFolder } from './app-folder.ts';
import { DeployStepError, executeSteps, type StepOutcome } from './execute.ts';
import { originFor, remoteOf, writeOrigin } from './id-mapping.ts';
import { planDeploy, plannedCalls, stepTitle, type NameOf } from './plan.ts';
import { countOutcomes, failureLines, planLines, progressLine, summaryLines } from './report.ts';
import { readSettings, settingsHelp } from './settings.ts';

export interface IO {
  out(line: string): void;
  err(line: string): void;
}

export const DEFAULT_APP_DIR = 'dist/make';

const USAGE = [
  'Usage: npm run make:deploy -- [--app-dir <folder>] [--dry-run] [--json]',
  `  --app-dir <folder>  the generated app (default ${DEFAULT_APP_DIR}, made by \`npm run build\`)`,
  '  --dry-run           print every call the deploy would make, make none (MAKE_API_TOKEN not needed)',
  '  --json              print one JSON document instead of lines',
  'Settings (environment): MAKE_API_TOKEN, MAKE_ZONE (e.g. eu1.make.com), MAKE_APP_NAME, optional MAKE_APP_VERSION (1),',
  '  MAKE_APP_LABEL, MAKE_APP_DESCRIPTION, MAKE_APP_THEME (used when the app is created).',
];

interface Args {
  appDir: string;
  dryRun: boolean;
  json: boolean;
  help: boolean;
}

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { appDir: DEFAULT_APP_DIR, dryRun: false, json: false, help: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--app-dir') {
      const next = argv[i + 1];
      if (!next || next.startsWith('--')) return '--app-dir needs a folder.';
      args.appDir = next;
      i += 1;
    } else if (arg.startsWith('--app-dir=')) {
      args.appDir = arg.slice('--app-dir='.length);
      if (!args.appDir) return '--app-dir needs a folder.';
    } else return `Unknown argument ${JSON.stringify(arg)}.`;
  }
  return args;
}

/** Every line goes through here: the token never reaches the output, whatever a message holds. */
function redacting(io: IO, token: string): IO {
  // (A value too short to be a real token is left alone rather than punching holes in every line.)
  const clean = (line: string) => (token.length >= 8 ? line.split(token).join('[MAKE_API_TOKEN]') : line);
  return { out: (line) => io.out(clean(line)), err: (line) => io.err(clean(line)) };
}

export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: IO): Promise<number> {
  try {
    return await deploy(argv, env, io);
  } catch (error) {
    // A bug or a local failure (e.g. makecomapp.json not writable): one line, token-free.
    redacting(io, env['MAKE_API_TOKEN']?.trim() ?? '').err(`make:deploy stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function deploy(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, rawIo: IO): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    [args, ...USAGE].forEach((line) => rawIo.err(line));
    return 2;
  }
  if (args.help) {
    USAGE.forEach((line) => rawIo.out(line));
    return 0;
  }

  const result = readSettings(env, { requireToken: !args.dryRun });
  if (!result.ok) {
    settingsHelp(result.problems).forEach((line) => rawIo.err(line));
    return 2;
  }
  const settings = result.settings;
  const io = redacting(rawIo, settings.token);
  const target = { zone: settings.zone, appName: settings.appName, appVersion: settings.appVersion };
  const app = { name: settings.appName, version: settings.appVersion };

  let folder: AppFolder;
  try {
    folder = readAppFolder(args.appDir);
  } catch (error) {
    if (!(error instanceof AppFolderError)) throw error;
    if (!error.missing) io.err(`Cannot deploy ${args.appDir}: ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'} in the app folder.`);
    error.problems.forEach((problem) => io.err(error.missing ? problem : `  - ${problem}`));
    return 2;
  }

  const origin = originFor(folder.manifest, settings);
  const plan = planDeploy(folder, settings, origin.idMapping!);
  const known: NameOf = (type, local) => remoteOf(origin.idMapping!, type, local) ?? undefined;

  if (args.dryRun) {
    if (args.json) {
      io.out(JSON.stringify({
        ok: true,
        dryRun: true,
        target,
        steps: plan.steps.map((step) => ({ step: stepTitle(step), calls: plannedCalls(step, app, known) })),
        skipped: plan.skipped,
      }, null, 2));
    } else planLines(plan, target, args.appDir, known).forEach((line) => io.out(line));
    return 0;
  }

  // Retries only what Make asks to retry (429 with Retry-After); anything else fails the step.
  const make = new Make(settings.token, settings.zone, { retry: { onRateLimit: true, onServerError: false, maxRetries: 3 } });
  if (!args.json) io.out(`Deploying ${args.appDir} as app ${settings.appName} v${settings.appVersion} to https://${settings.zone}/api/v2 (${plan.steps.length} steps)`);
  const persist = () => writeOrigin(folder, structuredClone(origin));
  let outcomes: StepOutcome[];
  try {
    outcomes = await executeSteps(plan.steps, {
      make,
      app,
      origin,
      persist,
      onStep: (outcome, index, total) => {
        if (!args.json) io.out(progressLine(outcome, index, total));
      },
    });
  } catch (error) {
    if (!(error instanceof DeployStepError)) throw error;
    if (args.json) {
      io.out(JSON.stringify({
        ok: false,
        target,
        failed: { step: error.index + 1, of: error.total, title: error.title, call: error.call ?? null, status: error.status ?? null, message: error.apiMessage },
        counts: countOutcomes(error.completed),
        idMapping: origin.idMapping,
      }, null, 2));
    } else failureLines(error, target).forEach((line) => io.err(line));
    return 1;
  }
  persist();
  if (args.json) {
    io.out(JSON.stringify({
      ok: true,
      target,
      steps: outcomes.map((outcome) => ({ step: outcome.title, action: outcome.action, calls: outcome.calls })),
      counts: countOutcomes(outcomes),
      skipped: plan.skipped,
      idMapping: origin.idMapping,
    }, null, 2));
  } else {
    summaryLines(outcomes, target, plan).forEach((line) => io.out(line));
    io.out(`Names recorded in origins[0].idMapping of ${args.appDir}/makecomapp.json: the next deploy updates this app instead of creating anew.`);
  }
  return 0;
}
