// `npm run bench`: the sandbox under HTTP load next to bare Fastify, one on-call change fanned
// out to 1,000 hooks (then again with 16 of them hanging), the per-request overhead of the Zapier app and the typed client over
// plain got, and the Zapier app's upload zip and cold start next to a minimal core app's (needs one `npm run build` first;
// skipped without it), 1,000 items through the n8n node next to n8n's HTTP Request node on the real
// engine (skipped without the engine in the cache), and an MCP tools/call of "who is on call" over stdio
// next to the typed client, and over HTTP; the start-up of the CLI package installed from its tarball next to
// `node -e 0` and a plain fetch script; "everyone on call" at 2,000 teams × 2 people on every
// surface (bytes, time, peak memory); and the API's latency with a console stream open ÷ without. Loopback only; every count and duration is bounded, so it stops by itself.
// Each part runs in a process of its own, one after the other (bench/part-process.ts): zapier-
// platform-core's memory guard, which ends a process serving calls above 450 MB, sees one part's
// memory, never the whole run's; a part that fails is named and the others still run.
// Prints tables with every aim, writes bench/results/latest.json, exits 1 if any check or guard failed
// or any part did not complete (an aim not met is printed, never a failure).
// Environment: BENCH_SECONDS (measured seconds per HTTP target, default 5),
// BENCH_DELIVERY_CONCURRENCY (delivery.concurrency for the fan-out, default 16), BENCH_SCALE_TEAMS (teams of the
// scale part, default 2,000), BENCH_SCALE_RATE_LIMIT (the sandbox's requests a minute per key there; default 0, lifted).
import { existsSync } from 'node:fs';
import type { StartupFigures } from './cli-startup.ts';
import { buildZip } from '../zapier-app/packaging/paths.ts';
import { stopOnSignals } from '../n8n-app/e2e/cleanup.ts';
import type { FanOutFigures } from './fan-out.ts';
import type { HttpLoadFigures } from './http-load.ts';
import type { McpOverheadFigures } from './mcp-overhead.ts';
import type { ScaleFigures } from './scale.ts';
import type { ConsoleStreamFigures } from './console-stream.ts';
import { printConsoleStream } from './console-stream-report.ts';
import { n8nBenchReady, n8nNodeSettings, type N8nNodeFigures } from './n8n-node.ts';
import { writeCharts } from './charts.ts';
import { machineFacts } from './machine.ts';
import { PARTS, type FiguresOf, type PartId, type SettingsOf } from './parts.ts';
import { runPartProcess } from './part-runner.ts';
import {
  printChecks,
  printCliStartup,
  printFanOut,
  printFootprint,
  printFootprintSkipped,
  printHttpLoad,
  printMachine,
  printMcpOverhead,
  printN8nNode,
  printN8nNodeSkipped,
  printOverhead,
  printPartProcess,
  printScale,
  writeResults,
} from './report.ts';
import { footprintSettings, type FootprintFigures } from './zapier-footprint.ts';
import type { OverheadFigures } from './zapier-overhead.ts';

const RESULTS = new URL('./results/latest.json', import.meta.url);

/** A number from the environment, bounded so that a typo cannot make the run last for hours. */
function fromEnv(name: string, fallback: number, min: number, max: number, integer = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    console.error(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not "${raw}"`);
    process.exit(2);
  }
  return value;
}

const load = { connections: 10, seconds: fromEnv('BENCH_SECONDS', 5, 1, 60), warmupSeconds: 1 };
// 16 is the sandbox's own default as this is written, so by default the figure is the sandbox
// as it ships; passed explicitly so the output can say what ran.
const fanOut = { subscriptions: 1_000, concurrency: fromEnv('BENCH_DELIVERY_CONCURRENCY', 16, 1, 1_000, true), hanging: 0, timeoutMs: 20_000 };
// As many hanging targets as there are slots: without a slow lane they would hold every slot
// for a whole time-out (5 s) while the other 984 wait.
const fanOutHanging = { ...fanOut, hanging: 16 };
const overhead = { runs: 300, warmupRuns: 30 };
// More warm-up rounds show what is left of the MCP call's gap once the server's own code is warm.
const mcpOverhead = { runs: 200, warmupRuns: fromEnv('BENCH_MCP_WARMUP', 20, 0, 5_000, true) };
// Four processes a round: about 1 s a round on this machine, more when it is busy.
const cliStartup = { rounds: 30, warmupRounds: 3 };

// Seven reads of everyone (MCP's first page reads only what its limit needs), each of about
// teams + 1 requests: lifted by default, as under the sandbox's 600 a minute each would wait
// minutes for the rate limit whatever the surface does.
const scale = {
  teams: fromEnv('BENCH_SCALE_TEAMS', 2_000, 1, 20_000, true),
  rateLimitPerMinute: fromEnv('BENCH_SCALE_RATE_LIMIT', 0, 0, 1_000_000, true),
  timeoutMs: 600_000,
};

// Two requests, two rounds of (no console, a console stream open): eight runs of 4.3 s.
const consoleStream = { connections: 10, seconds: 3, warmupSeconds: 1, rounds: 2 };

// The last line of defence for "stops by itself": whatever hangs, the process ends.
const budgetMs =
  3 * (load.seconds + load.warmupSeconds) * 1000 +
  fanOut.timeoutMs +
  2 * fanOutHanging.timeoutMs +
  footprintSettings.timeoutMs +
  n8nNodeSettings.timeoutMs +
  // Four calls a round, each well under 20 ms on a loaded machine.
  (mcpOverhead.warmupRuns + mcpOverhead.runs) * 4 * 20 +
  7 * scale.timeoutMs +
  // Packing and installing, then four processes a round, each well under 2 s.
  60_000 +
  (cliStartup.warmupRounds + cliStartup.rounds) * 4 * 2_000 +
  2 * 2 * consoleStream.rounds * (consoleStream.seconds + consoleStream.warmupSeconds + 1) * 1000 +
  90_000;
setTimeout(() => {
  console.error(`\nThe benchmark ran past its ${budgetMs / 1000} s budget and was stopped.`);
  process.exit(3);
}, budgetMs).unref();

const started = performance.now();
const startedAt = new Date().toISOString();
const machine = machineFacts();
const problems: string[] = [];
printMachine(machine, startedAt);

// Ctrl-C or SIGTERM: the running part is told (it stops what it started), then the bench exits.
stopOnSignals('npm run bench');

/** How each part's process went: its time and peak memory, for the results file. */
const processes: Record<string, { seconds: number; peakRssMb: number | null }> = {};

/**
 * Each part in a process of its own (bench/part-process.ts), one after the other: the figures
 * come back over IPC and are printed here, so the run is one report. A part that fails is
 * reported by name and the others still run: one broken part should not hide the rest.
 */
async function part<P extends PartId>(id: P, name: string, settings: SettingsOf<P>, print: (figures: FiguresOf<P>) => void): Promise<FiguresOf<P> | null> {
  const begin = performance.now();
  try {
    const { figures, peakRssMb } = await runPartProcess(id, settings);
    processes[name] = { seconds: Number(((performance.now() - begin) / 1000).toFixed(1)), peakRssMb };
    print(figures);
    printPartProcess(peakRssMb, PARTS[id].runsCore);
    problems.push(...(figures as { problems: string[] }).problems.map((problem) => `${name}: ${problem}`));
    return figures;
  } catch (error) {
    processes[name] = { seconds: Number(((performance.now() - begin) / 1000).toFixed(1)), peakRssMb: null };
    problems.push(`${name} did not complete: ${error instanceof Error ? error.message : String(error)}`);
    console.log(`\n${name} did not complete (see below).`);
    return null;
  }
}

const http: HttpLoadFigures | null = await part('httpLoad', 'HTTP load', load, printHttpLoad);
const hooks: FanOutFigures | null = await part('fanOut', 'Hook fan-out', fanOut, printFanOut);
const hooksHanging: FanOutFigures | null = await part('fanOut', 'Hook fan-out, 16 hanging', fanOutHanging, printFanOut);
const zapier: OverheadFigures | null = await part('zapierOverhead', 'Request overhead', overhead, printOverhead);
// The zip's node_modules come from the last `npm run build`: without its zip there is nothing to
// measure, which is a setup step not done, not a failed check.
let footprint: FootprintFigures | null = null;
if (existsSync(buildZip)) footprint = await part('zapierFootprint', 'Zip and cold start', footprintSettings, printFootprint);
else printFootprintSkipped();
const mcp: McpOverheadFigures | null = await part('mcpOverhead', 'MCP overhead', mcpOverhead, printMcpOverhead);
let n8nNode: N8nNodeFigures | null = null;
if (n8nBenchReady()) n8nNode = await part('n8nNode', 'n8n node', n8nNodeSettings, printN8nNode);
else printN8nNodeSkipped();
const startup: StartupFigures | null = await part('cliStartup', 'CLI start-up', cliStartup, printCliStartup);

const scaled: ScaleFigures | null = await part('scale', 'Scale', scale, printScale);
const consoleCost: ConsoleStreamFigures | null = await part('consoleStream', 'Console stream', consoleStream, printConsoleStream);

const seconds = (performance.now() - started) / 1000;
// The headline figures at the top: the Zapier app's per-call cost over the minimal app's,
// beside it the zip and the cold start over the minimal app's, and the n8n node over n8n's HTTP Request node
// (null when skipped or failed).
const results = {
  startedAt,
  zapierOverMinimal: zapier?.ratios.zapierOverMinimal ?? null,
  zipOverMinimal: footprint?.zipOverMinimal ?? null,
  coldStartOverMinimal: footprint?.coldStartOverMinimal ?? null,
  mcpOverClient: mcp?.mcpOverClient ?? null,
  mcpHttpOverClient: mcp?.httpOverClient ?? null,
  n8nNodeOverHttp: n8nNode?.pagerlyOverHttp ?? null,
  cliVersionOverNode: startup?.versionOverNode ?? null,
  cliOnCallOverPlainFetch: startup?.onCallOverPlainFetch ?? null,
  seconds: Number(seconds.toFixed(1)),
  ok: problems.length === 0,
  problems,
  machine,
  httpLoad: http,
  fanOut: hooks,
  fanOutWithHanging: hooksHanging,
  requestOverhead: zapier,
  footprint,
  mcpOverhead: mcp,
  n8nNode,
  scale: scaled,
  cliStartup: startup,
  consoleStream: consoleCost,
  processes,
};
// The ratios against their anchors, drawn for docs/benchmarks.md (npm run bench:charts draws them
// again from the results file). A chart that cannot be drawn is a failed check, not a lost run.
try {
  const { written, left } = await writeCharts(results);
  console.log(
    `\nCharts of the ratios written to docs/benchmarks/: ${written.join(', ') || 'none'}${left.length ? ` (not measured in this run, left as they were: ${left.join(', ')})` : ''}`,
  );
} catch (error) {
  problems.push(`Charts could not be drawn: ${error instanceof Error ? error.message : String(error)}`);
}
results.ok = problems.length === 0;
writeResults(RESULTS, results);
printChecks(problems, 'bench/results/latest.json', seconds);
process.exitCode = problems.length === 0 ? 0 : 1;
