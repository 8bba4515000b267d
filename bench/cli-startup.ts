import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { installIntoEmptyFolder, pack, scratch, writeInto } from '../packaging/install.ts';
import { cliPackage } from '../packaging/packages.ts';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { median, percentile, round } from './stats.ts';

/** The aims: `pagerly --version` within 3× of `node -e 0`, `pagerly on-call --team` within 1.5× of a plain script. */
export const STARTUP_AIMS = { versionOverNode: 3, onCallOverPlainFetch: 1.5 } as const;

export interface StartupSettings {
  readonly rounds: number;
  readonly warmupRounds: number;
}

interface Way {
  readonly medianMs: number;
  readonly p90Ms: number;
}

export interface StartupFigures {
  settings: StartupSettings;
  node: string;
  ways: { nodeE0: Way; version: Way; plainFetch: Way; onCall: Way };
  versionOverNode: number;
  onCallOverPlainFetch: number;
  aims: typeof STARTUP_AIMS;
  problems: string[];
}

/**
 * What `pagerly on-call --team Payments` does, written plainly: the same two requests (the
 * team list, then the team's people on call) with fetch, the answer printed as JSON.
 */
const PLAIN_SCRIPT = `const base = process.env.PAGERLY_BASE_URL;
const headers = { 'X-APIKEY': process.env.PAGERLY_API_KEY, Accept: 'application/json' };
const teams = await (await fetch(base + '/pagerly/o/zapier/allteams', { headers })).json();
const team = teams.find((t) => t.name.toLowerCase() === 'payments');
const onCall = await (await fetch(base + '/pagerly/o/currentusers?teamname=' + encodeURIComponent(team.name), { headers })).json();
console.log(JSON.stringify({ teams: [{ ...team, onCall }] }, null, 2));
`;

/**
 * Start-up of the installed CLI package, from its tarball in an empty folder: a fresh process
 * per sample, from spawn to exit, for four ways in turn (the order rotates every round) on the
 * project's Node: `node -e 0`, `pagerly --version`, the plain script, and
 * `pagerly on-call --team Payments` against a sandbox on loopback. The figures are ratios of
 * medians from the same run, so a busy machine slows both sides alike.
 */
export async function measureCliStartup(settings: StartupSettings): Promise<StartupFigures> {
  const packs = scratch('pagerly-bench-tarball-');
  await cliPackage.build();
  const consumer = installIntoEmptyFolder([pack(cliPackage.dir, packs).tarball]);
  const bin = join(consumer, 'node_modules', '.bin', 'pagerly');
  const plain = writeInto(consumer, 'plain-on-call.mjs', PLAIN_SCRIPT);
  const sandbox = await createSandbox();
  const url = await sandbox.listen();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? consumer, PAGERLY_API_KEY: demoKeys.acmeAdmin, PAGERLY_BASE_URL: url };
  const problems: string[] = [];
  const ways = {
    nodeE0: ['-e', '0'],
    version: [bin, '--version'],
    plainFetch: [plain],
    onCall: [bin, 'on-call', '--team', 'Payments', '--json'],
  } as const;
  type Name = keyof typeof ways;
  const names = Object.keys(ways) as Name[];
  const samples: Record<Name, number[]> = { nodeE0: [], version: [], plainFetch: [], onCall: [] };
  try {
    // Asynchronous: the sandbox answering the CLI runs in this process.
    const time = (args: readonly string[]) =>
      new Promise<{ ms: number; code: number | null; stdout: string }>((resolve, reject) => {
        const started = performance.now();
        const child = spawn(process.execPath, [...args], { cwd: consumer, env, stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ ms: performance.now() - started, code, stdout }));
      });
    const answers = new Map<Name, string>();
    for (let round = 0; round < settings.warmupRounds + settings.rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        const run = await time(ways[name]);
        if (run.code !== 0) throw new Error(`${name} exited ${run.code}`);
        if (name === 'plainFetch' || name === 'onCall') answers.set(name, JSON.stringify(JSON.parse(run.stdout).teams[0].onCall));
        if (round >= settings.warmupRounds) samples[name].push(run.ms);
      }
    }
    if (answers.get('plainFetch') !== answers.get('onCall')) problems.push('the plain script and pagerly on-call did not print the same people');
  } finally {
    await sandbox.close();
    for (const folder of [consumer, packs]) rmSync(folder, { recursive: true, force: true });
  }
  const way = (name: Name): Way => ({ medianMs: round(median(samples[name]), 1), p90Ms: round(percentile(samples[name], 90), 1) });
  const figures = { nodeE0: way('nodeE0'), version: way('version'), plainFetch: way('plainFetch'), onCall: way('onCall') };
  const versionOverNode = round(median(samples.version) / median(samples.nodeE0), 2);
  const onCallOverPlainFetch = round(median(samples.onCall) / median(samples.plainFetch), 2);
  // Aims, not guards: the report prints each beside its figure (within or over), and as every aim
  // of the bench, one not met never fails the run; a timing on a shared machine is not a check.
  const node = spawnSync(process.execPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { settings, node, ways: figures, versionOverNode, onCallOverPlainFetch, aims: STARTUP_AIMS, problems };
}
