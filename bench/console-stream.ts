// The console's cost to the API: the sandbox's `GET currentusers` and `POST incident` under
// autocannon with no console open, then with one console stream open (a reader in a worker
// thread, as a browser elsewhere would be), alternating (without, with, without, with...) so
// drift weighs on both sides alike. Each request the load makes is a journal entry the stream
// carries, so the "with" runs pay for the feed in full. The figures are ratios, with ÷ without.
import { Worker } from 'node:worker_threads';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import { runLoad } from './http-load.ts';
import type { LoadJob, LoadOutcome } from './load-worker.ts';
import { median, round } from './stats.ts';

export interface ConsoleStreamSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Rounds of (without, with) per request. */
  rounds: number;
}

export interface ConsoleStreamRun {
  request: string;
  stream: boolean;
  requestsPerSecond: number;
  latency: LoadOutcome['latency'];
  non2xx: number;
  errors: number;
  /** What the open stream received during the run (0 without one). */
  streamEvents: number;
  streamBytes: number;
}

export interface ConsoleStreamFigures {
  settings: ConsoleStreamSettings;
  runs: ConsoleStreamRun[];
  /** Per request, the median run with the stream open ÷ the median without: 1× is no cost. */
  ratios: { request: string; rps: number; p50: number; p99: number }[];
  /** Printed when missed, never a failure: a loaded machine moves these figures more than the console does. */
  aim: number;
  problems: string[];
}

const CURRENT_USERS = '/pagerly/o/currentusers?teamname=Platform';
const INCIDENT = '/o/incident';
const INCIDENT_BODY = JSON.stringify({ title: 'bench', severity: 'P3' });
const AIM = 1.1;

// The reader runs plain JavaScript in its own thread: it counts events and bytes and reports them when told to stop.
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let events = 0, bytes = 0;
const request = http.get(workerData.url, { agent: false }, (response) => {
  response.setEncoding('utf8');
  response.on('data', (chunk) => { bytes += Buffer.byteLength(chunk); events += chunk.split('\\n\\n').length - 1; });
});
request.on('error', () => undefined);
parentPort.on('message', () => { request.destroy(); parentPort.postMessage({ events, bytes }); });
`;

export async function measureConsoleStream(settings: ConsoleStreamSettings): Promise<ConsoleStreamFigures> {
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
  try {
    const url = await sandbox.listen({ host: '127.0.0.1' });
    const key = { 'x-apikey': demoKeys.acmeAdmin };
    const common = { connections: settings.connections, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };
    const plan: { request: string; job: LoadJob }[] = [
      { request: `GET ${CURRENT_USERS}`, job: { ...common, url: url + CURRENT_USERS, method: 'GET', headers: key } },
      {
        request: `POST ${INCIDENT}`,
        job: { ...common, url: url + INCIDENT, method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: INCIDENT_BODY },
      },
    ];
    const runs: ConsoleStreamRun[] = [];
    for (const { request, job } of plan) {
      for (let round = 0; round < settings.rounds; round += 1) {
        for (const stream of [false, true]) {
          const reader = stream ? new Worker(READER, { eval: true, workerData: { url: `${url}/_sandbox/console/events` } }) : undefined;
          // The stream open and its snapshot sent before the load starts.
          if (reader) await new Promise((resolve) => setTimeout(resolve, 300));
          const outcome = await runLoad(job);
          const received = reader ? await stopReader(reader) : { events: 0, bytes: 0 };
          runs.push({
            request,
            stream,
            requestsPerSecond: Math.round(outcome.responses / outcome.seconds),
            latency: outcome.latency,
            non2xx: outcome.non2xx,
            errors: outcome.errors,
            streamEvents: received.events,
            streamBytes: received.bytes,
          });
        }
      }
    }
    const ratios = plan.map(({ request }) => {
      const side = (stream: boolean) => runs.filter((run) => run.request === request && run.stream === stream);
      const over = (pick: (run: ConsoleStreamRun) => number) => round(median(side(true).map(pick)) / median(side(false).map(pick)));
      return { request, rps: over((run) => run.requestsPerSecond), p50: over((run) => run.latency.p50), p99: over((run) => run.latency.p99) };
    });
    const problems = [
      ...runs
        .filter((run) => run.non2xx > 0 || run.errors > 0)
        .map((run) => `${run.request}${run.stream ? ' with the stream' : ''}: ${run.non2xx} non-2xx, ${run.errors} errors`),
      // A stream that carried nothing measured nothing.
      ...runs.filter((run) => run.stream && run.streamEvents < 100).map((run) => `${run.request}: the console stream received only ${run.streamEvents} events`),
    ];
    return { settings, runs, ratios, aim: AIM, problems };
  } finally {
    await sandbox.close();
  }
}

function stopReader(reader: Worker): Promise<{ events: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    reader.once('message', (received: { events: number; bytes: number }) => {
      void reader.terminate();
      resolve(received);
    });
    reader.once('error', reject);
    reader.postMessage('stop');
  });
}

// This part alone: `node bench/console-stream.ts` (the settings `npm run bench` uses).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/.*\//, ''))) {
  const { printConsoleStream } = await import('./console-stream-report.ts');
  const figures = await measureConsoleStream({ connections: 10, seconds: 3, warmupSeconds: 1, rounds: 2 });
  printConsoleStream(figures);
  for (const problem of figures.problems) console.error(problem);
  process.exitCode = figures.problems.length === 0 ? 0 : 1;
}
