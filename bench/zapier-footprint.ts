// Issue 13 point 9: the Zapier app's zip and cold start next to a minimal zapier-platform-core
// app's (bench/minimal-zapier-app.ts). Run after `npm run build`: `node bench/zapier-footprint.ts`.
// The minimal zip is the app's own upload zip (same node_modules, same package.json) with index.js
// swapped for the minimal app bundled with the same esbuild options; both zips are written by the
// same library, so the difference is the app's code and nothing else. Cold start: a fresh Node
// process per sample, from process start to the first trigger's answer (require core, require
// index.js, createAppHandler, one call against an in-process sandbox on 127.0.0.1), interleaved.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { build } from 'esbuild';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { buildZip } from '../zapier-app/packaging/paths.ts';
import { median, round } from './stats.ts';
import { ZAPIER_BUNDLE_OPTIONS } from '../zapier-app/packaging/bundle.ts';

const SAMPLES = 15;
// Not execFileSync: the sandbox answering the child runs in this process's event loop.
const run = promisify(execFile);

if (!existsSync(buildZip)) {
  console.error(`No ${buildZip}: run npm run build first.`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'zapier-footprint-'));
const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
try {
  const minimalBundle = join(work, 'minimal-index.js');
  // The options of zapier-app/packaging/bundle.ts; the footer exports the app itself, as there.
  await build({
    entryPoints: [new URL('./minimal-zapier-app.ts', import.meta.url).pathname],
    outfile: minimalBundle,
    ...ZAPIER_BUNDLE_OPTIONS,
    external: [...ZAPIER_BUNDLE_OPTIONS.external],
    footer: { js: 'module.exports = module.exports.minimalApp;' },
  });
  const zips = { app: join(work, 'app.zip'), minimal: join(work, 'minimal.zip') };
  const appZip = new AdmZip(buildZip);
  appZip.writeZip(zips.app);
  const minimalZip = new AdmZip(buildZip);
  minimalZip.updateFile('index.js', readFileSync(minimalBundle));
  minimalZip.writeZip(zips.minimal);
  const bytes = { app: readFileSync(zips.app).length, minimal: readFileSync(zips.minimal).length };
  const indexBytes = { app: appZip.getEntry('index.js')!.header.size, minimal: readFileSync(minimalBundle).length };

  const dirs = { app: join(work, 'app'), minimal: join(work, 'minimal') };
  for (const name of ['app', 'minimal'] as const) new AdmZip(zips[name]).extractAllTo(dirs[name], true);

  const url = await sandbox.listen({ host: '127.0.0.1' });
  // One process, one call: how long from the process's start until the first answer.
  const child = `
    const started = performance.now();
    const { createAppHandler } = require('zapier-platform-core');
    const handler = createAppHandler(require('./index.js'));
    handler({ command: 'execute', method: 'triggers.team.operation.perform', bundle: { authData: { apiKey: process.env.KEY } }, calledFromCli: true })
      .then((out) => console.log(JSON.stringify({ ms: performance.now(), inProcessMs: performance.now() - started, teams: out.results.length })));`;
  const samples = { app: [] as number[], minimal: [] as number[] };
  const inProcess = { app: [] as number[], minimal: [] as number[] };
  const teams = new Set<number>();
  for (let i = 0; i < SAMPLES; i++) {
    for (const name of (i % 2 ? ['minimal', 'app'] : ['app', 'minimal']) as ('app' | 'minimal')[]) {
      const env = { PATH: process.env.PATH, PAGERLY_BASE_URL: url, KEY: demoKeys.acmeAdmin };
      const out = JSON.parse((await run(process.execPath, ['-e', child], { cwd: dirs[name], env, encoding: 'utf8', timeout: 30_000 })).stdout) as {
        ms: number;
        inProcessMs: number;
        teams: number;
      };
      samples[name].push(out.ms);
      inProcess[name].push(out.inProcessMs);
      teams.add(out.teams);
    }
  }
  const cold = { app: round(median(samples.app)), minimal: round(median(samples.minimal)) };
  const loadAndCall = { app: round(median(inProcess.app)), minimal: round(median(inProcess.minimal)) };
  console.log(
    JSON.stringify(
      {
        zipBytes: bytes,
        zipOverMinimal: round(bytes.app / bytes.minimal, 3),
        indexJsBytes: indexBytes,
        coldStartMedianMs: cold,
        coldStartOverMinimal: round(cold.app / cold.minimal, 3),
        requireAndFirstCallMedianMs: loadAndCall,
        requireAndFirstCallOverMinimal: round(loadAndCall.app / loadAndCall.minimal, 3),
        samples: SAMPLES,
        sameTeams: teams.size === 1,
      },
      null,
      2,
    ),
  );
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
