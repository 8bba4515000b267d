// Runs one autocannon load in a worker thread. The servers under test keep the main thread to
// themselves: with the load generator on the same event loop, every request would also pay
// for its own client, and the sandbox-to-bare ratio would be pulled towards 1.
import { createHistogram } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface LoadOutcome {
  /** Responses of the measured run (warm-up excluded). */
  responses: number;
  seconds: number;
  /** Milliseconds. */
  latency: { p50: number; p90: number; p99: number; mean: number; max: number };
  /** Warm-up included, as are `non2xx` and `errors`: a wrong answer during warm-up is still a wrong answer. */
  statusCountsWithWarmup: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const job = workerData as LoadJob;

// autocannon's own latency histogram keeps whole milliseconds, which on loopback leaves p50 at
// 0 or 1 ms and the ratios meaningless; its 'response' event has the hrtime figure, kept here in ns.
const latencies = createHistogram({ lowest: 1, highest: 60e9, figures: 3 });

const instance = autocannon({
  url: job.url,
  method: job.method,
  headers: job.headers,
  ...(job.body === undefined ? {} : { body: job.body }),
  connections: job.connections,
  duration: job.seconds,
  warmup: { duration: job.warmupSeconds },
  timeout: 10,
});
instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
  latencies.record(Math.max(1, Math.round(responseTimeMs * 1e6)));
});
const result = await instance;

const runs = result.warmup ? [result, result.warmup] : [result];
const statusCounts: Record<string, number> = {};
for (const run of runs) {
  for (const [status, { count }] of Object.entries(run.statusCodeStats)) statusCounts[status] = (statusCounts[status] ?? 0) + count;
}
const sum = (pick: (run: (typeof runs)[number]) => number) => runs.reduce((total, run) => total + pick(run), 0);
/** Microsecond resolution is all a loopback latency can claim. */
const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;

const outcome: LoadOutcome = {
  responses: latencies.count,
  seconds: result.duration,
  latency: {
    p50: ms(latencies.percentile(50)),
    p90: ms(latencies.percentile(90)),
    p99: ms(latencies.percentile(99)),
    mean: ms(latencies.mean),
    max: ms(latencies.max),
  },
  statusCountsWithWarmup: statusCounts,
  non2xx: sum((run) => run.non2xx),
  errors: sum((run) => run.errors),
  timeouts: sum((run) => run.timeouts),
};
parentPort?.postMessage(outcome);
