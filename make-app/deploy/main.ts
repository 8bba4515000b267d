// `npm run make:deploy [-- --app-dir dist/make] [--origins FILE] [--new-app NAME] [--dry-run] [--json]`:
// pushes the generated Make custom app to a Make account. Exit codes: 0 done, 1 a request failed,
// 2 nothing was sent (arguments, settings, app folder, a breaking change for a live app, an app
// that serves another major).
import { parseArgs } from 'node:util';
import { redact } from '../../shared/redact.ts';
import { ORIGINS_FILE } from '../origins.ts';
import { originFor, saveOrigin, setRemote } from './origin.ts';
import { AppFolderError, planDeploy } from './plan.ts';
import { counts, failureLines, planLines, progressLine, summaryLines } from './report.ts';
import { DeployStepError, RecordingMake, runSteps } from './run.ts';
import { readSettings, settingsHelp } from './settings.ts';
import { NEW_APP_ENV, newAppLines, refusalLines, type ReleaseCheck } from './release-check.ts';
import { readOrigins } from '../origins.ts';
import { AppMajorsError, appMajorsBeside, readAppMajors, writeAppMajors } from '../app-majors.ts';
import { checkAppMajor, recordLine } from './app-major.ts';

export interface IO {
  out(line: string): void;
  err(line: string): void;
}
type Env = Readonly<Record<string, string | undefined>>;

const USAGE = [
  'Usage: npm run make:deploy -- [--app-dir <folder>] [--origins <file>] [--new-app <name>] [--dry-run] [--json]',
  '  --app-dir <folder>  the generated app (default dist/make, made by `npm run build`)',
  "  --origins <file>    where Make's names of the deployed components are kept (default make-app/origins.json: commit it),",
  '                      and beside it app-majors.json, which app serves which major version in each zone (commit it too)',
  `  --new-app <name>    deploy as a new app of this name (version 1), which must not exist yet: the way to ship a breaking change (or ${NEW_APP_ENV})`,
  '  --dry-run           print every step the deploy would take, send nothing (MAKE_API_TOKEN not needed)',
  '  --json              print one JSON document instead of lines',
  'A breaking difference on the Make surface since the released version (npm run api:check) stops the deploy, dry run',
  '  included, unless --new-app: Make applies a deploy to every scenario using the app at once. So does an app',
  "  that serves another major than this version's (after a breaking release went out as a new app).",
  'Settings (environment): MAKE_API_TOKEN, MAKE_ZONE (e.g. eu1.make.com), MAKE_APP_NAME, optional MAKE_APP_VERSION (1),',
  '  MAKE_APP_LABEL, MAKE_APP_DESCRIPTION, MAKE_APP_THEME (used when the app is created).',
];

const OPTIONS = {
  'app-dir': { type: 'string', default: 'dist/make' },
  origins: { type: 'string', default: ORIGINS_FILE },
  'new-app': { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * `release` asks what changed on the Make surface since the released version; the entry
 * (scripts/make-deploy.ts) gives api:check's, tests give their own.
 */
export async function main(argv: readonly string[], env: Env, rawIo: IO, release: ReleaseCheck): Promise<number> {
  // Every line goes through here: the token never reaches the output, whatever a message holds.
  const token = env['MAKE_API_TOKEN']?.trim();
  const io: IO = { out: (line) => rawIo.out(redact(line, [token])), err: (line) => rawIo.err(redact(line, [token])) };
  try {
    return await deploy(argv, env, io, release);
  } catch (error) {
    // A bug or a local failure (e.g. a code file missing, origins not writable): one line.
    io.err(`make:deploy stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** Writes each line with `write`. */
function writeLines(write: (line: string) => void, lines: readonly string[]): void {
  for (const line of lines) write(line);
}

async function deploy(argv: readonly string[], env: Env, io: IO, release: ReleaseCheck): Promise<number> {
  let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    args = parseArgs({ args: [...argv], options: OPTIONS }).values;
  } catch (error) {
    writeLines(io.err, [(error as Error).message, ...USAGE]);
    return 2;
  }
  if (args.help) {
    writeLines(io.out, USAGE);
    return 0;
  }
  const { 'app-dir': appDir, origins: originsFile, 'dry-run': dryRun, json } = args;
  const majorsFile = appMajorsBeside(originsFile);
  // A new app is version 1 of its own name: the released app, and every scenario on it, stay as they are.
  const newApp = args['new-app']?.trim() || env[NEW_APP_ENV]?.trim() || undefined;
  // Before anything else, settings included: what this deploy would change for the scenarios of a
  // live app. A breaking change is refused whatever else is missing, so it is never hidden behind
  // a settings error that, once fixed, would let it through.
  const since = await release();
  const breaking = since.differences.filter((difference) => difference.verdict === 'breaking');
  if (breaking.length > 0 && !newApp) {
    const liveApp = env['MAKE_APP_NAME']?.trim() || undefined;
    if (json) io.out(JSON.stringify({ ok: false, refused: { releasedVersion: since.releasedVersion, version: since.version, breaking } }, null, 2));
    else writeLines(io.err, refusalLines(since, liveApp));
    return 2;
  }

  const result = readSettings(newApp ? { ...env, MAKE_APP_NAME: newApp, MAKE_APP_VERSION: '1' } : env, { requireToken: !dryRun });
  if ('problems' in result) {
    writeLines(io.err, settingsHelp(result.problems));
    return 2;
  }
  const { token, zone, appName, appVersion, appLabel: label, appDescription: description, appTheme: theme } = result.settings;
  const target = { zone, appName, appVersion };
  const print = (document: object) => io.out(JSON.stringify({ target, ...document }, null, 2));
  if (newApp && readOrigins(originsFile).some((origin) => origin.baseUrl === `https://${zone}/api` && origin.appId === newApp)) {
    io.err(
      `Not deploying: --new-app ${newApp} names an app already deployed to ${zone} (${originsFile}); a new app must be one no scenario uses yet. Choose another name.`,
    );
    return 2;
  }
  // Before any request, dry run included: an app takes only the deploys of the majors it serves.
  let majors: ReturnType<typeof readAppMajors>;
  try {
    majors = readAppMajors(majorsFile);
  } catch (error) {
    if (!(error instanceof AppMajorsError)) throw error;
    io.err(error.message);
    return 2;
  }
  const major = checkAppMajor(majors, { zone, app: appName, version: since.version, newApp: newApp !== undefined }, majorsFile);
  if (!major.ok) {
    if (json) io.out(JSON.stringify({ ok: false, refused: major.refused }, null, 2));
    else writeLines(io.err, major.lines);
    return 2;
  }
  const { record } = major;
  /** Adds this app to the record once it is in Make: later deploys of another major to it are refused. */
  const keepRecord = () => {
    if (!record) return;
    writeAppMajors([...readAppMajors(majorsFile), record], majorsFile);
    if (!json) io.out(recordLine(record, majorsFile, true));
  };
  const origin = originFor(originsFile, target);
  const mapping = origin.idMapping!;
  let plan: ReturnType<typeof planDeploy>;
  try {
    plan = planDeploy(
      appDir,
      { name: appName, label, ...(description ? { description } : {}), theme, language: 'en', audience: 'global', private: true },
      mapping,
      { mustCreate: newApp !== undefined },
    );
  } catch (error) {
    if (!(error instanceof AppFolderError)) throw error;
    io.err(error.message);
    return 2;
  }
  const asNew = newApp ? newAppLines(since, appName) : [];
  if (dryRun) {
    if (json)
      print({
        ok: true,
        dryRun: true,
        ...(newApp ? { newApp: { breaking } } : {}),
        ...(record ? { record } : {}),
        steps: plan.steps.map((step) => step.title),
        skipped: plan.skipped,
      });
    else writeLines(io.out, [...asNew, ...planLines(plan, target, appDir), ...(record ? [recordLine(record, majorsFile, false)] : [])]);
    return 0;
  }
  if (!json) writeLines(io.out, asNew);

  // Retries only what Make asks to retry (429 with Retry-After); anything else fails the step.
  const make = new RecordingMake(token, zone, { retry: { onRateLimit: true, onServerError: false, maxRetries: 3 } });
  const save = () => saveOrigin(origin, originsFile, appDir);
  const remember = (type: Parameters<typeof setRemote>[1], local: string, remote: string) => {
    setRemote(mapping, type, local, remote);
    save();
  };
  const state = { make, app: { name: appName, version: appVersion }, mapping, remember, appCreated: false, remote: {} };
  if (!json) io.out(`Deploying ${appDir} as app ${appName} v${appVersion} to https://${zone}/api/v2 (${plan.steps.length} steps)`);
  try {
    const outcomes = await runSteps(plan.steps, make, state, (outcome, index) => {
      if (!json) io.out(progressLine(outcome, index, plan.steps.length));
    });
    save();
    if (json) print({ ok: true, steps: outcomes, counts: counts(outcomes), skipped: plan.skipped, idMapping: mapping, ...(record ? { record } : {}) });
    else writeLines(io.out, [...summaryLines(outcomes, target, plan), `Make's names are in ${originsFile} (commit it) and ${appDir}/makecomapp.json.`]);
    keepRecord();
    return 0;
  } catch (error) {
    if (!(error instanceof DeployStepError)) throw error;
    if (state.appCreated) {
      save();
      keepRecord();
    }
    const { completed, ...failed } = error.failure;
    if (json) print({ ok: false, failed: { ...failed, step: failed.index + 1, message: error.message }, counts: counts(completed), idMapping: mapping });
    else writeLines(io.err, failureLines(error, target, originsFile));
    return 1;
  }
}
