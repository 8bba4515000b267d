// Prints the figures as tables and writes them as JSON: the table is for reading the run,
// the JSON for comparing runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { StartupFigures } from './cli-startup.ts';
import type { FanOutFigures } from './fan-out.ts';
import type { HttpLoadFigures } from './http-load.ts';
import type { N8nNodeFigures } from './n8n-node.ts';
import type { MachineFacts } from './machine.ts';
import type { FootprintFigures } from './zapier-footprint.ts';
import type { McpOverheadFigures } from './mcp-overhead.ts';
import type { OverheadFigures } from './zapier-overhead.ts';
import type { ScaleFigures } from './scale.ts';

const tty = Boolean(process.stdout.isTTY);
const bold = (text: string) => (tty ? `\u001b[1m${text}\u001b[0m` : text);
const red = (text: string) => (tty ? `\u001b[31m${text}\u001b[0m` : text);
const green = (text: string) => (tty ? `\u001b[32m${text}\u001b[0m` : text);

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '—');
const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '—');

/** Columns padded to their widest cell; numbers right-aligned. */
function table(header: string[], rows: string[][], numeric: boolean[]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

export function printMachine(machine: MachineFacts, startedAt: string): void {
  console.log(bold(`Pagerly benchmark, ${startedAt}`));
  console.log(`  Node ${machine.node} (V8 ${machine.v8}), ${machine.platform}`);
  console.log(
    `  ${machine.cpus} CPUs (${machine.availableParallelism} usable): ${machine.cpuModel}; ${machine.memoryGiB} GiB; load average ${machine.loadAverage1m}`,
  );
}

export function printHttpLoad(figures: HttpLoadFigures): void {
  const { connections, seconds, warmupSeconds } = figures.settings;
  console.log(bold(`\n1. HTTP load: autocannon, ${connections} connections, ${warmupSeconds} s warm-up + ${seconds} s measured per target`));
  console.log('   (load generated in a worker thread, servers on the main thread, 127.0.0.1; non-2xx and errors count the warm-up too)');
  table(
    ['target', 'request', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors'],
    figures.targets.map((t) => [
      t.name,
      t.request,
      int(t.requestsPerSecond),
      ms(t.latency.p50),
      ms(t.latency.p90),
      ms(t.latency.p99),
      ms(t.latency.max),
      String(t.non2xx),
      String(t.errors),
    ]),
    [false, false, true, true, true, true, true, true, true],
  );
  console.log('  sandbox ÷ bare:');
  table(
    ['', 'req/s', 'p99'],
    figures.ratios.map((r) => [r.name, times(r.rps), times(r.p99)]),
    [false, true, true],
  );
}

export function printFanOut(figures: FanOutFigures): void {
  const c = figures.concurrency;
  const hanging = figures.hanging > 0;
  console.log(
    bold(
      `\n2${hanging ? 'b' : ''}. Hook fan-out: ${int(figures.subscriptions)} Zapier subscriptions on Platform${hanging ? `, ${figures.hanging} of them hanging` : ''}, one on-call change (09:00 handover)`,
    ),
  );
  const verdict = c.honoured
    ? 'honoured'
    : c.peakInFlight === 0
      ? 'not observable (the sandbox made no global fetch call)'
      : `NOT honoured: more than ${c.bound} at once`;
  console.log(
    `  delivery.concurrency  ${c.passed} passed, slow lane ${c.slowLane}; peak ${c.peakInFlight} deliveries in flight (the sandbox's fetch calls, at most ${c.bound}): ${verdict}`,
  );
  console.log(
    `  ${hanging ? 'good ones delivered' : 'all delivered      '}   ${int(figures.delivered)} in ${ms(figures.msToAll)} ms after the change (queue idle at ${ms(figures.msToIdle)} ms) = ${int(figures.deliveriesPerSecond)} deliveries/s`,
  );
  if (hanging)
    console.log(
      `  hanging               ${figures.hangingReached} reached, never answered; ${figures.hangingTimedOut} timed out in the sandbox after ${int(figures.attemptTimeoutMs)} ms (so the queue's idle time)`,
    );
  const a = figures.arrivalMs;
  console.log(`  arrivals, ms          first ${ms(a.first)}  p50 ${ms(a.p50)}  p90 ${ms(a.p90)}  p99 ${ms(a.p99)}  last ${ms(a.last)}`);
  console.log(
    `  event                 ${figures.eventId ?? 'not one event id'}${figures.eventId ? ' on every subscription, once each' : ''}; ${int(c.connectionsOpened)} connections opened to the receiver; retries off`,
  );
}

export function printOverhead(figures: OverheadFigures): void {
  const { runs, warmupRuns } = figures.settings;
  console.log(bold(`\n3. Request overhead: ${figures.request}, ${runs} rounds after ${warmupRuns} warm-up rounds`));
  console.log('   (one request at a time; the order of the ways rotates every round)');
  table(
    ['way', 'median ms', 'p90 ms', '÷ got (median)'],
    [
      ['plain got, .json()', ms(figures.got.medianMs), ms(figures.got.p90Ms), times(1)],
      ['Zapier app, triggers.team via core createAppHandler', ms(figures.zapier.medianMs), ms(figures.zapier.p90Ms), times(figures.ratios.zapierOverGot)],
      [
        'minimal core app, same z.request, same handler',
        ms(figures.minimalZapier.medianMs),
        ms(figures.minimalZapier.p90Ms),
        times(figures.ratios.minimalZapierOverGot),
      ],
      [
        "the app's definition, the minimal request with merge: false",
        ms(figures.appDefinitionMinimalPerform.medianMs),
        ms(figures.appDefinitionMinimalPerform.p90Ms),
        times(figures.appDefinitionMinimalPerform.medianMs / figures.got.medianMs),
      ],
      [
        "the app's auth and two triggers only, the same request",
        ms(figures.appTriggersMinimalPerform.medianMs),
        ms(figures.appTriggersMinimalPerform.p90Ms),
        times(figures.appTriggersMinimalPerform.medianMs / figures.got.medianMs),
      ],
      [
        'the app on core compiling its definition once (patched here)',
        ms(figures.zapierCompiledOnce.medianMs),
        ms(figures.zapierCompiledOnce.p90Ms),
        times(figures.zapierCompiledOnce.medianMs / figures.got.medianMs),
      ],
      ['typed Node client, listTeams()', ms(figures.nodeClient.medianMs), ms(figures.nodeClient.p90Ms), times(figures.ratios.nodeClientOverGot)],
    ],
    [false, true, true, true],
  );
  console.log(`  zapierOverMinimal     ${times(figures.ratios.zapierOverMinimal)} (the app's median ÷ the minimal app's: what the app itself adds)`);
  const d = figures.definition;
  console.log(
    `  definition values     the app ${int(d.values.app)}, its auth and triggers ${int(d.values.appTriggers)}, the minimal app ${int(d.values.minimal)}`,
  );
  console.log(
    `  core per value        ${d.coreMicrosecondsPerValue} µs a call (the two rows above): ${ms(d.appDefinitionMs)} ms a call for the app's whole definition`,
  );
  console.log(
    `  core compiling once   ${times(figures.ratios.zapierCompiledOnceOverMinimal)} the minimal app (core's TODO in create-lambda-handler.js done, in this process only)`,
  );
  console.log(`  within ${d.aim}×           at most ${int(d.valuesWithinAim)} values in a definition, were the app's own code free`);
}

export function printMcpOverhead(figures: McpOverheadFigures): void {
  const { runs, warmupRuns } = figures.settings;
  console.log(bold(`\n5. MCP: ${figures.call}, ${runs} rounds after ${warmupRuns} warm-up rounds`));
  console.log('   (one call at a time; which way goes first rotates every round)');
  table(
    ['way', 'median ms', 'p90 ms'],
    [
      ['pagerly mcp over stdio, tools/call (the SDK client)', ms(figures.mcp.medianMs), ms(figures.mcp.p90Ms)],
      ['pagerly mcp --http, tools/call (the SDK HTTP client)', ms(figures.mcpHttp.medianMs), ms(figures.mcpHttp.p90Ms)],
      ['the same server in process, SDK in-memory transport', ms(figures.mcpInProcess.medianMs), ms(figures.mcpInProcess.p90Ms)],
      ['typed Node client, the same search in process', ms(figures.client.medianMs), ms(figures.client.p90Ms)],
    ],
    [false, true, true],
  );
  console.log(
    `  inProcessOverClient   ${times(figures.inProcessOverClient)} (the MCP layer in process: the SDK and the server's tool code, no second process or pipes)`,
  );
  const aim = (ratio: number) => (ratio <= figures.aim ? green(`within the aim of ${figures.aim}×`) : `over the aim of ${figures.aim}×`);
  const guard = figures.mcpOverClient <= figures.guard ? green(`within the guard of ${figures.guard}×`) : red(`over the guard of ${figures.guard}×`);
  console.log(`  mcpOverClient         ${times(figures.mcpOverClient)} (the stdio call's median ÷ the client's; ${aim(figures.mcpOverClient)}; ${guard})`);
  console.log(`  httpOverClient        ${times(figures.httpOverClient)} (the HTTP call's median ÷ the client's; ${aim(figures.httpOverClient)}; no guard)`);
}

export function printFootprint(figures: FootprintFigures): void {
  const { zipBytes, indexJsBytes, coldStartMedianMs: cold, requireAndFirstCallMedianMs: loadAndCall } = figures;
  console.log(bold('\n4. Zapier zip and cold start: the upload zip with index.js bundled from the current sources, next to the same zip with the minimal app'));
  console.log(
    "   (node_modules from the last npm run build; cold start: a fresh Node process per sample, from its start to the first trigger's answer, interleaved)",
  );
  table(
    ['measure', 'app', 'minimal app', 'app ÷ minimal'],
    [
      ['upload zip, bytes', int(zipBytes.app), int(zipBytes.minimal), times(figures.zipOverMinimal)],
      ['index.js, bytes', int(indexJsBytes.app), int(indexJsBytes.minimal), times(indexJsBytes.app / indexJsBytes.minimal)],
      ['cold start, median ms', ms(cold.app), ms(cold.minimal), times(figures.coldStartOverMinimal)],
      ['require + first call, median ms', ms(loadAndCall.app), ms(loadAndCall.minimal), times(figures.requireAndFirstCallOverMinimal)],
      ['  of which index.js, median ms', ms(figures.requireIndexMedianMs.app), ms(figures.requireIndexMedianMs.minimal), ''],
      ['  of which the first call, median ms', ms(figures.firstCallMedianMs.app), ms(figures.firstCallMedianMs.minimal), ''],
    ],
    [false, true, true, true],
  );
  console.log(
    `  ${figures.settings.samples} processes each, interleaved; ${figures.sameTeams ? `all answered the same ${figures.teams} teams` : 'NOT the same teams in every answer'}`,
  );
}

/** No upload zip to copy: the part is left out of the run, which is not a failure. */
export function printFootprintSkipped(): void {
  console.log(bold('\n4. Zapier zip and cold start: skipped, run `npm run build` once to measure the zip and cold start'));
}

export function printN8nNode(figures: N8nNodeFigures): void {
  const { items, rounds, warmupRounds } = figures.settings;
  console.log(
    bold(
      `\n6. n8n node: ${int(items)} items through the Pagerly node's create-incident next to n8n's HTTP Request node, on n8n ${figures.n8n} (Node ${figures.node})`,
    ),
  );
  console.log(
    `   (${figures.request}; the same credential; ${rounds} rounds after ${warmupRounds} warm-up, the order alternating; the node's own time as n8n records it)`,
  );
  table(
    ['node', 'median ms', 'per item ms', 'execution median ms', 'rounds ms'],
    [
      [
        'Pagerly, Create Incident',
        ms(figures.pagerly.medianMs),
        ms(figures.pagerly.medianMs / items),
        ms(figures.pagerly.executionMedianMs),
        figures.pagerly.runsMs.map(int).join(' '),
      ],
      [
        'HTTP Request (n8n)',
        ms(figures.httpRequest.medianMs),
        ms(figures.httpRequest.medianMs / items),
        ms(figures.httpRequest.executionMedianMs),
        figures.httpRequest.runsMs.map(int).join(' '),
      ],
    ],
    [false, true, true, true, false],
  );
  const met = figures.pagerlyOverHttp <= figures.aim;
  console.log(`  pagerlyOverHttp       ${times(figures.pagerlyOverHttp)} (aim ≤ ${figures.aim}×: ${met ? green('met') : red('not met')})`);
  console.log(
    `  incidents             ${int(figures.incidents.pagerly)} and ${int(figures.incidents.httpRequest)} in the last round, ${figures.incidents.alike ? 'alike but for id and time' : 'NOT alike'}`,
  );
}

/** No n8n engine in the cache: the part is left out of the run, which is not a failure. */
export function printN8nNodeSkipped(): void {
  console.log(bold('\n6. n8n node: skipped, the n8n engine is not cached (`npm run n8n:install` installs it once, about 3 GB)'));
}

export function printScale(figures: ScaleFigures): void {
  const { teams, rateLimitPerMinute } = figures.settings;
  console.log(bold(`\n8. Scale: everyone on call at ${int(teams)} teams × 2 people (everyone on call in two teams), every surface`));
  console.log(
    `   (each surface in a process of its own, one after the other; ${int(figures.requestsPerRead)} requests a read: the team list, then each team, four at a time;`,
  );
  console.log(
    rateLimitPerMinute > 0
      ? `   the sandbox's limit: ${int(rateLimitPerMinute)} requests a minute per key, each surface its own key, 429 with Retry-After beyond it)`
      : `   the sandbox's rate limit lifted: at its default 600 a minute a read takes at least ${figures.minutesAtDefaultLimit.toFixed(1)} min whatever the surface; BENCH_SCALE_RATE_LIMIT=600 keeps it)`,
  );
  table(
    ['surface', 'results', 'requests', 'bytes', 'bytes a result', 's', 'RSS loaded MB', 'peak RSS MB', 'what the bytes are'],
    figures.surfaces.map((f) => [
      f.surface,
      f.error ? 'failed' : f.read === undefined || f.read === f.results ? int(f.results) : `${int(f.results)} of ${int(f.read)}`,
      int(f.requests),
      int(f.bytes),
      int(f.bytesPerResult),
      (f.ms / 1000).toFixed(1),
      f.rssAfterLoadMb.toFixed(1),
      f.peakRssMb.toFixed(1),
      f.error ? f.error.slice(0, 120) : f.what,
    ]),
    [false, true, true, true, true, true, true, true, false],
  );
  const mcp = figures.surfaces.find((f) => f.surface === 'MCP');
  if (mcp && !mcp.error) {
    const verdict = mcp.bytes <= figures.aims.mcpTextBytes ? green('within') : red('over');
    console.log(
      `  MCP text ${int(mcp.bytes)} bytes: ${verdict} the aim of ${int(figures.aims.mcpTextBytes)} (the tool's own limit: ${int(mcp.results)} results, read with ${int(mcp.requests)} of the ${int(figures.requestsPerRead)} requests of a whole read)`,
    );
  }
  const pages = figures.surfaces.find((f) => f.surface === 'MCP, every page');
  if (pages && !pages.error)
    console.log(
      `  MCP, every page: ${int(pages.calls ?? 0)} calls going on from next_cursor, ${int(pages.results)} results, ${int(pages.repeated ?? 0)} repeated, ${int(pages.requests)} requests; the slowest call ${((pages.slowestCallMs ?? 0) / 1000).toFixed(1)} s`,
    );
}

export function printCliStartup(figures: StartupFigures): void {
  const { rounds, warmupRounds } = figures.settings;
  console.log(
    bold(
      `\n7. CLI start-up: @pagerly/cli installed from its tarball into an empty folder, on Node ${figures.node}, ${rounds} rounds after ${warmupRounds} warm-up rounds`,
    ),
  );
  console.log('   (a fresh process per sample, spawn to exit; the order of the four rotates every round; the sandbox on loopback)');
  const { nodeE0, version, plainFetch, onCall } = figures.ways;
  table(
    ['process', 'median ms', 'p90 ms'],
    [
      ['node -e 0', ms(nodeE0.medianMs), ms(nodeE0.p90Ms)],
      ['pagerly --version', ms(version.medianMs), ms(version.p90Ms)],
      ['a plain Node script: the same two requests with fetch', ms(plainFetch.medianMs), ms(plainFetch.p90Ms)],
      ['pagerly on-call --team Payments --json', ms(onCall.medianMs), ms(onCall.p90Ms)],
    ],
    [false, true, true],
  );
  const verdict = (value: number, aim: number) => (value <= aim ? green('within') : red('over'));
  console.log(
    `  versionOverNode       ${times(figures.versionOverNode)} (${verdict(figures.versionOverNode, figures.aims.versionOverNode)} the aim of ${figures.aims.versionOverNode}×)`,
  );
  console.log(
    `  onCallOverPlainFetch  ${times(figures.onCallOverPlainFetch)} (${verdict(figures.onCallOverPlainFetch, figures.aims.onCallOverPlainFetch)} the aim of ${figures.aims.onCallOverPlainFetch}×)`,
  );
}

/** zapier-platform-core's memory guard: process.exit(1) once a process has served 250 calls above 450 MB resident (core's constants.js). */
export const CORE_MEMORY_GUARD = { calls: 250, rssMb: 450 } as const;

/** The part's own process, after its table: its peak memory, and for a part that runs core, next to core's guard. */
export function printPartProcess(peakRssMb: number, runsCore: boolean): void {
  const guard = `zapier-platform-core's guard: ${CORE_MEMORY_GUARD.rssMb} MB after ${CORE_MEMORY_GUARD.calls} calls`;
  const verdict = peakRssMb < CORE_MEMORY_GUARD.rssMb ? green('under') : red('over');
  console.log(`  its own process: peak RSS ${int(peakRssMb)} MB${runsCore ? ` (${verdict} ${guard})` : ''}`);
}

export function printChecks(problems: readonly string[], resultsPath: string, seconds: number): void {
  console.log('');
  if (problems.length === 0)
    console.log(`${green('All checks passed')} (every response 2xx, every subscription got the one event once, every way gave the same teams).`);
  else for (const problem of problems) console.log(red(`✘ ${problem}`));
  console.log(`Figures written to ${resultsPath} (run took ${seconds.toFixed(1)} s).`);
}

export function writeResults(file: URL, results: object): void {
  mkdirSync(new URL('.', file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
