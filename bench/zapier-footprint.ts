// Part 4: the Zapier app's upload zip and cold start next to a minimal
// zapier-platform-core app's (bench/minimal-zapier-app.ts). Part of `npm run bench` once
// `npm run build` has made dist/zapier/build/build.zip; on its own, `npm run bench:footprint`
// prints the figures as JSON.
// Both zips are copies of the last build's upload zip with the app's own files swapped: the app's
// (index.js, the loader, app.js and its map) are zapier-app/index.ts bundled afresh here (the current
// sources, not whatever the last build left),
// the minimal one is the minimal app, both with the options of zapier-app/packaging/bundle.ts. The
// rest of the zip (node_modules: zapier-platform-core and its dependencies, package.json,
// zapierwrapper.js, definition.json) comes from the last `npm run build` as it is, and both zips are
// written by the same library, so they differ by those files and nothing else. Cold start: a fresh Node
// process per sample, from process start to the first trigger's answer (require core, require
// index.js, createAppHandler, one call against an in-process sandbox on 127.0.0.1), interleaved.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { build } from 'esbuild';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { BUNDLE_FILES, bundleApp, ZAPIER_BUNDLE_OPTIONS } from '../zapier-app/packaging/bundle.ts';
import { buildZip } from '../zapier-app/packaging/paths.ts';
import { median, round } from './stats.ts';

export interface FootprintSettings {
  /** Fresh processes per app, interleaved app and minimal. */
  samples: number;
  /** The whole part (bundles, zips, every process) must be done by then, or it fails instead of hanging. */
  timeoutMs: number;
}

interface Pair {
  app: number;
  minimal: number;
}

export interface FootprintFigures {
  settings: FootprintSettings;
  /** Bytes of the upload zip with the app's index.js and with the minimal app's. */
  zipBytes: Pair;
  zipOverMinimal: number;
  indexJsBytes: Pair;
  /** From process start to the first answer, median over the samples. */
  coldStartMedianMs: Pair;
  coldStartOverMinimal: number;
  /** The part of the cold start after the process is up: require core and index.js, createAppHandler, one call. */
  requireAndFirstCallMedianMs: Pair;
  requireAndFirstCallOverMinimal: number;
  /** Where the app's extra goes: loading index.js (with createAppHandler), then the first call. */
  requireIndexMedianMs: Pair;
  firstCallMedianMs: Pair;
  /** Every process of both apps gave the same teams, so the times compare the same work. */
  sameTeams: boolean;
  /** How many teams the first answer held. */
  teams: number;
  problems: string[];
}

/**
 * What `npm run bench` runs, and this file run on its own: 31 samples (~16 s) keep the median
 * steady within about ±0.01×; 15 moved it by ±0.025×. The limit only stops a part that hangs:
 * on this 2-core machine shared at load average 10–14, the 62 processes took over 60 s.
 */
export const footprintSettings: FootprintSettings = { samples: 31, timeoutMs: 180_000 };

// Not execFileSync: the sandbox answering the child runs in this process's event loop.
const run = promisify(execFile);

// One process, one call: how long from the process's start until the first answer.
const CHILD = `
  const started = performance.now();
  const { createAppHandler } = require('zapier-platform-core');
  const coreLoaded = performance.now();
  const handler = createAppHandler(require('./index.js'));
  const appLoaded = performance.now();
  handler({ command: 'execute', method: 'triggers.team.operation.perform', bundle: { authData: { apiKey: process.env.KEY } }, calledFromCli: true })
    .then((out) => {
      const answered = performance.now();
      const phases = { requireIndexMs: appLoaded - coreLoaded, firstCallMs: answered - appLoaded };
      console.log(JSON.stringify({ ms: answered, inProcessMs: answered - started, ...phases, results: out.results }));
    });`;

export async function measureZapierFootprint(settings: FootprintSettings): Promise<FootprintFigures> {
  const deadline = performance.now() + settings.timeoutMs;
  if (!existsSync(buildZip)) throw new Error(`no ${buildZip}: run npm run build first`);
  const work = mkdtempSync(join(tmpdir(), 'zapier-footprint-'));
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
  try {
    const appDir = join(work, 'app-bundle');
    const minimalIndex = join(work, 'minimal-index.js');
    mkdirSync(appDir);
    await Promise.all([
      // The build's own bundling of the current sources (loader, app.js and its map), into the temp folder.
      bundleApp(appDir),
      // The same options; the footer exports the minimal app itself, as bundleApp's does the app.
      build({
        entryPoints: [new URL('./minimal-zapier-app.ts', import.meta.url).pathname],
        outfile: minimalIndex,
        ...ZAPIER_BUNDLE_OPTIONS,
        external: [...ZAPIER_BUNDLE_OPTIONS.external],
        footer: { js: 'module.exports = module.exports.minimalApp;' },
      }),
    ]);
    // What each zip holds of its own: the app's bundle files, or the minimal app as index.js alone.
    const ownFiles = {
      app: Object.values(BUNDLE_FILES).map((file) => ({ file, content: readFileSync(join(appDir, file)) })),
      minimal: [{ file: 'index.js', content: readFileSync(minimalIndex) }],
    };

    const names = ['app', 'minimal'] as const;
    const zips = { app: join(work, 'app.zip'), minimal: join(work, 'minimal.zip') };
    const dirs = { app: join(work, 'app'), minimal: join(work, 'minimal') };
    const zipBytes: Pair = { app: 0, minimal: 0 };
    const indexJsBytes: Pair = { app: 0, minimal: 0 };
    for (const name of names) {
      // node_modules and the other files: those of the last `npm run build`, without its bundle files.
      const zip = new AdmZip(buildZip);
      for (const file of Object.values(BUNDLE_FILES)) if (zip.getEntry(file)) zip.deleteFile(file);
      for (const { file, content } of ownFiles[name]) zip.addFile(file, content);
      zip.writeZip(zips[name]);
      zipBytes[name] = readFileSync(zips[name]).length;
      // The JavaScript the app loads: the loader and app.js (the map is read only if source maps are on).
      indexJsBytes[name] = ownFiles[name].filter(({ file }) => file.endsWith('.js')).reduce((sum, { content }) => sum + content.length, 0);
      new AdmZip(zips[name]).extractAllTo(dirs[name], true);
    }

    const url = await sandbox.listen({ host: '127.0.0.1' });
    const env = { PATH: process.env.PATH, PAGERLY_BASE_URL: url, KEY: demoKeys.acmeAdmin };
    const coldStart = { app: [] as number[], minimal: [] as number[] };
    const inProcess = { app: [] as number[], minimal: [] as number[] };
    const requireIndex = { app: [] as number[], minimal: [] as number[] };
    const firstCall = { app: [] as number[], minimal: [] as number[] };
    const answers = new Set<string>();
    let teams = Number.NaN;
    for (let i = 0; i < settings.samples; i++) {
      for (const name of i % 2 ? (['minimal', 'app'] as const) : (['app', 'minimal'] as const)) {
        const timeout = Math.floor(deadline - performance.now());
        if (timeout <= 0) throw new Error(`not done within ${settings.timeoutMs / 1000} s (${i} of ${settings.samples} samples taken)`);
        const { stdout } = await run(process.execPath, ['-e', CHILD], { cwd: dirs[name], env, encoding: 'utf8', timeout }).catch((error: unknown) => {
          // execFile's own message repeats the whole child script: say which process and why instead.
          const { killed, stderr } = error as { killed?: boolean; stderr?: string };
          const lines = (stderr ?? '').trim().split('\n');
          const why = killed
            ? `stopped at the ${settings.timeoutMs / 1000} s limit of the part`
            : (lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1));
          throw new Error(`process ${i + 1} of ${settings.samples} of the ${name === 'app' ? 'app' : 'minimal app'} did not answer: ${why}`);
        });
        const out = JSON.parse(stdout) as { ms: number; inProcessMs: number; requireIndexMs: number; firstCallMs: number; results: unknown[] };
        coldStart[name].push(out.ms);
        inProcess[name].push(out.inProcessMs);
        requireIndex[name].push(out.requireIndexMs);
        firstCall[name].push(out.firstCallMs);
        answers.add(JSON.stringify(out.results));
        if (Number.isNaN(teams)) teams = out.results.length;
      }
    }

    const problems: string[] = [];
    const sameTeams = answers.size === 1;
    if (!sameTeams) problems.push(`the app and the minimal app answered ${answers.size} different team lists over the samples`);
    const medians = (samples: { app: number[]; minimal: number[] }): Pair => ({ app: round(median(samples.app)), minimal: round(median(samples.minimal)) });
    const cold = medians(coldStart);
    const loadAndCall = medians(inProcess);
    return {
      settings,
      zipBytes,
      zipOverMinimal: round(zipBytes.app / zipBytes.minimal, 3),
      indexJsBytes,
      coldStartMedianMs: cold,
      coldStartOverMinimal: round(cold.app / cold.minimal, 3),
      requireAndFirstCallMedianMs: loadAndCall,
      requireAndFirstCallOverMinimal: round(loadAndCall.app / loadAndCall.minimal, 3),
      requireIndexMedianMs: medians(requireIndex),
      firstCallMedianMs: medians(firstCall),
      sameTeams,
      teams,
      problems,
    };
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (!existsSync(buildZip)) {
    console.error(`No ${buildZip}: run npm run build first.`);
    process.exit(2);
  }
  const figures = await measureZapierFootprint(footprintSettings);
  console.log(JSON.stringify(figures, null, 2));
  process.exitCode = figures.problems.length === 0 ? 0 : 1;
}
