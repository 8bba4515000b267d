// Part 1: the sandbox's throughput and latency under autocannon, next to a bare Fastify route
// that returns the same JSON, so the figures say what the sandbox's own work costs
// (key check, catalog validation, the world lookup) over Fastify and the loopback itself.
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { createSandbox, demoKeys } from '../sandbox/index.ts';
import type { LoadJob, LoadOutcome } from './load-worker.ts';
import { round } from './stats.ts';

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface TargetFigures extends LoadOutcome {
  name: string;
  request: string;
  requestsPerSecond: number;
}

export interface HttpLoadFigures {
  settings: LoadSettings;
  targets: TargetFigures[];
  /** Each sandbox target against the bare route: below 1 for throughput and above 1 for p99 means slower. */
  ratios: { name: string; rps: number; p99: number }[];
  problems: string[];
}

const CURRENT_USERS = '/pagerly/o/currentusers?teamname=Platform';
const INCIDENT = '/o/incident';
const INCIDENT_BODY = JSON.stringify({ title: 'bench', severity: 'P3' });

export async function measureHttpLoad(settings: LoadSettings): Promise<HttpLoadFigures> {
  // No rate limit: the default 600 a minute would turn most of the run into 429s.
  const sandbox = await createSandbox({ clock: { mode: 'fixed' }, rateLimit: false });
  const bare = Fastify({ logger: false });
  try {
    const sandboxUrl = await sandbox.listen({ host: '127.0.0.1' });
    const key = { 'x-apikey': demoKeys.acmeAdmin };

    // The baseline answers with exactly the body the sandbox gives, so both sides serialize
    // and send the same bytes; only the sandbox's work around it differs.
    const expected = await fetch(sandboxUrl + CURRENT_USERS, { headers: key });
    if (expected.status !== 200) throw new Error(`GET ${CURRENT_USERS} answered ${expected.status} before the load`);
    const payload: unknown = await expected.json();
    bare.get('/pagerly/o/currentusers', async () => payload);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const [sandboxText, bareText] = await Promise.all([
      fetch(sandboxUrl + CURRENT_USERS, { headers: key }).then((r) => r.text()),
      fetch(bareUrl + CURRENT_USERS).then((r) => r.text()),
    ]);
    if (sandboxText !== bareText) throw new Error('The bare route does not answer the same JSON as the sandbox');

    const common = { connections: settings.connections, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };
    // The POST runs last: it creates an incident per request, and the growing world and garbage
    // should not weigh on the runs that come before it.
    const plan: { name: string; request: string; job: LoadJob }[] = [
      {
        name: 'bare Fastify (baseline)',
        request: `GET ${CURRENT_USERS} (no key)`,
        job: { ...common, url: bareUrl + CURRENT_USERS, method: 'GET', headers: {} },
      },
      { name: 'sandbox currentusers', request: `GET ${CURRENT_USERS}`, job: { ...common, url: sandboxUrl + CURRENT_USERS, method: 'GET', headers: key } },
      {
        name: 'sandbox create incident',
        request: `POST ${INCIDENT} ${INCIDENT_BODY}`,
        job: { ...common, url: sandboxUrl + INCIDENT, method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: INCIDENT_BODY },
      },
    ];

    const targets: TargetFigures[] = [];
    for (const { name, request, job } of plan) {
      const outcome = await runLoad(job);
      targets.push({ name, request, requestsPerSecond: round(outcome.responses / outcome.seconds, 1), ...outcome });
    }

    const problems = targets
      .filter((t) => t.non2xx > 0 || t.errors > 0 || t.responses === 0)
      .map(
        (t) =>
          `${t.name}: ${t.non2xx} non-2xx, ${t.errors} errors (${t.timeouts} timeouts), ${t.responses} responses; statuses ${JSON.stringify(t.statusCountsWithWarmup)}`,
      );
    const [baseline, ...measured] = targets;
    const ratios =
      baseline === undefined
        ? []
        : measured.map((t) => ({
            name: t.name,
            rps: round(t.requestsPerSecond / baseline.requestsPerSecond),
            p99: round(t.latency.p99 / baseline.latency.p99),
          }));
    return { settings, targets, ratios, problems };
  } finally {
    await bare.close();
    await sandbox.close();
  }
}

/** One autocannon run in a worker thread, so the load does not share the event loop of the server it measures. */
export function runLoad(job: LoadJob): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData: job });
    let outcome: LoadOutcome | undefined;
    worker.once('message', (message: LoadOutcome) => (outcome = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (outcome ? resolve(outcome) : reject(new Error(`The load worker for ${job.url} exited with code ${code} and no figures`))));
  });
}
