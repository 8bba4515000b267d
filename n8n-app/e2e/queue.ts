// The n8n package in n8n's queue mode (`npm run n8n:e2e` runs it; alone:
// `node n8n-app/e2e/queue.ts --line newest`): PostgreSQL and Redis started here on loopback,
// `n8n start` with EXECUTIONS_MODE=queue and one `n8n worker`. A workflow activated on the main
// instance (Pagerly Trigger → Create Incident) polls there, and its execution runs on the
// worker: the sandbox reads from the kernel which process sent each request. One line per case
// with its time; exit 1 on any failure.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { connection } from '../../shared/operations/connection.ts';
import { builtPackage } from './built-package.ts';
import { ensureEngine, LINES, lineDir } from '../engine/cache.ts';
import { BASE_URL_FIELD, CREDENTIAL, ROTATIONS_BASE_URL_FIELD, TRIGGER_NODE } from '../names.ts';
import { cases, expect, lineFromArgs, waitFor } from './cases.ts';
import { freePort, N8nInstance } from './n8n-process.ts';
import { recordSenders, type SeenRequest } from './peer-process.ts';
import { executionsOf, itemsOf, onCallReads, scheduledPollRead, secondsFromNow } from './poll-runs.ts';
import { N8nRest } from './rest.ts';
import { type QueueServices, startQueueServices } from './services.ts';
import { stopOnSignals } from './cleanup.ts';
import { createIncidentOperation, nodeName, pollTimes, triggerToIncidentWorkflow } from './workflows.ts';

const HOUR = 3_600_000;
const TEAM = 'Payments';
const args = parseArgs({ options: { line: { type: 'string' }, package: { type: 'string' } } }).values;
const line = lineFromArgs(LINES, LINES.newest, args.line);
const { check, finish, results } = cases();
// Ctrl-C or SIGTERM: n8n, the worker, PostgreSQL and Redis stopped, their folders deleted.
stopOnSignals('queue mode');

console.log(`n8n ${line.n8n} in queue mode (${line.about}), engine ${lineDir(line)}`);
if (
  !(await check(`install n8n ${line.n8n} into the cache`, async () =>
    ensureEngine(line)
      .map((s) => `${s.what}: ${s.reused ? 'cached' : `${s.seconds.toFixed(0)} s`}`)
      .join('; '),
  ))
)
  process.exit(1);

const extensions = join(await builtPackage(args.package), 'dist');
const sandbox = await createSandbox({ clock: { mode: 'fixed' } });
const sandboxUrl = await sandbox.listen();
const apiKey = demoKeys.acmeAdmin;
let services: QueueServices | undefined;
let main: N8nInstance | undefined;
let worker: N8nInstance | undefined;
// The e2e itself reads who is on call (to know what to expect): its requests are told apart too.
const pids = () => [main?.pid, worker?.pid, process.pid].filter((pid): pid is number => pid !== undefined);
const senders = recordSenders(sandbox.app.server, pids);
const who = (pid: number | undefined) =>
  pid === undefined ? 'another process' : pid === main?.pid ? `main (pid ${pid})` : pid === worker?.pid ? `worker (pid ${pid})` : 'this e2e';
/** The requests of one kind since a point in the log, grouped by the process that sent them. */
const byProcess = (requests: readonly SeenRequest[]) => {
  const groups = new Map<string, string[]>();
  for (const request of requests) groups.set(who(request.pid), [...(groups.get(who(request.pid)) ?? []), `${request.method} ${request.path}`]);
  return [...groups].map(([process, calls]) => `${process}: ${calls.length} × ${[...new Set(calls)].join(', ')}`).join('; ');
};
const isPoll = (request: SeenRequest) => request.method === 'GET' && request.pid !== process.pid;
const isIncident = (request: SeenRequest) => request.method === 'POST' && request.path.endsWith('/incident');

try {
  if (
    !(await check('PostgreSQL and Redis on loopback', async () => {
      // Should one fail to start, the other is stopped before this throws.
      services = await startQueueServices();
      return `postgres on 127.0.0.1:${services.postgres.port}, redis-server on 127.0.0.1:${services.redis.port}`;
    }))
  )
    throw new Error('no database or queue');

  const queueEnv = { EXECUTIONS_MODE: 'queue', ...services!.postgres.n8nEnv, ...services!.redis.n8nEnv };
  const rest = { current: undefined as N8nRest | undefined };
  if (
    !(await check('n8n main (EXECUTIONS_MODE=queue) and one worker', async () => {
      main = new N8nInstance(await freePort(), extensions, { line, env: queueEnv });
      // The first start on an empty PostgreSQL runs all of n8n's migrations: minutes on a busy machine.
      await main.start(600_000);
      // The worker shares the main instance's user folder (its settings; the key is in the environment) and logs each job.
      worker = new N8nInstance(await freePort(), extensions, { line, command: 'worker', folder: main.folder, env: { ...queueEnv, N8N_LOG_LEVEL: 'info' } });
      await worker.start(600_000);
      rest.current = new N8nRest(main.url);
      await rest.current.setUpOwner();
      const settings = await rest.current.request<{ executionMode?: string }>('GET', '/settings');
      expect(settings.executionMode === 'queue', `the main instance says its execution mode is ${settings.executionMode}`);
      return `main pid ${main.pid} on ${main.url}, worker pid ${worker.pid} (health ${worker.url}); n8n says executionMode "queue"`;
    }))
  )
    throw new Error('n8n did not start in queue mode');
  const n8n = rest.current!;

  const reader = createNodeClient({ apiKey, baseUrl: sandboxUrl });
  const onCall = async () => (await reader.listOnCallUsers({ teamname: TEAM })).map((user) => user.id);
  let workflowId = '';
  let before: string[] = [];
  let activatedAt = 0;
  let readsAtActivation = 0;
  await check('workflow activated on main: its first poll there', async () => {
    const credential = await n8n.request<{ id: string; name: string }>('POST', '/credentials', {
      name: 'Pagerly (sandbox)',
      type: CREDENTIAL.name,
      data: { [connection.apiKeyField.key]: apiKey, [BASE_URL_FIELD]: sandboxUrl, [ROTATIONS_BASE_URL_FIELD]: '' },
    });
    before = await onCall();
    const times = secondsFromNow([12, 30]);
    const workflow = await n8n.request<{ id: string; versionId: string }>('POST', '/workflows', triggerToIncidentWorkflow(credential, TEAM, pollTimes(times)));
    workflowId = workflow.id;
    const seenBefore = senders.seen.length;
    await n8n.request('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
    activatedAt = senders.seen.length;
    readsAtActivation = onCallReads(senders.seen);
    // n8n 2.35 polls once while activating; later lines may register the trigger without it.
    const polls = senders.seen.slice(seenBefore).filter(isPoll);
    expect(
      polls.every((request) => request.pid === main!.pid),
      `the activation poll did not come from main alone: ${byProcess(polls)}`,
    );
    expect((await executionsOf(n8n, workflowId)).length === 0, 'an execution after activation');
    return `polls at ${times.join(' and ')}; ${polls.length ? `activation poll from ${byProcess(polls)}` : 'no poll while activating'}`;
  });

  await check('12 h on: poll on main, execution on the worker', async () => {
    expect(workflowId !== '', 'no active workflow');
    await scheduledPollRead(senders.seen, readsAtActivation);
    await sandbox.clock.advance(12 * HOUR);
    const now = await onCall();
    const changes = before.filter((id) => !now.includes(id)).length + now.filter((id) => !before.includes(id)).length;
    const [execution] = await waitFor(
      'the execution of the poll that saw the handover',
      async () => {
        const done = (await executionsOf(n8n, workflowId)).filter((e) => e.status !== 'running' && e.status !== 'new');
        return done.length ? done : undefined;
      },
      75_000,
    );
    expect(execution!.status === 'success', `execution ${execution!.id} ended ${execution!.status}`);
    const opened = await itemsOf(n8n, execution!.id, nodeName(createIncidentOperation()), line);
    const changeItems = await itemsOf(n8n, execution!.id, TRIGGER_NODE.displayName, line);
    expect(changes > 0 && opened.length === changes, `${opened.length} incidents for ${changes} on-call changes`);
    const expectedTitles = changeItems.map((json) => `${String(json.type)} ${(json.user as { id?: string }).id}`);
    expect(
      JSON.stringify(opened.map((json) => json.title)) === JSON.stringify(expectedTitles),
      `titles ${JSON.stringify(opened.map((json) => json.title))} ≠ ${JSON.stringify(expectedTitles)}`,
    );
    const after = senders.seen.slice(activatedAt);
    const incidents = after.filter(isIncident);
    const polls = after.filter(isPoll);
    expect(
      incidents.length === opened.length && incidents.every((request) => request.pid === worker!.pid),
      `the incidents were not all opened by the worker: ${byProcess(incidents)}`,
    );
    expect(polls.length > 0 && polls.every((request) => request.pid === main!.pid), `the polls did not all come from main: ${byProcess(polls)}`);
    // The worker's own log names the job it ran, with the execution's id.
    const logged = new RegExp(`execution ${execution!.id}\\b`).test(worker!.serverLog());
    expect(logged, `the worker's log does not mention execution ${execution!.id}`);
    return `execution ${execution!.id}: ${opened.map((json) => `${json.id} "${json.title}"`).join(', ')}\n    polls ${byProcess(polls)}\n    incidents ${byProcess(incidents)}; the worker's log names execution ${execution!.id}`;
  });

  await check('deactivating on main', async () => {
    expect(workflowId !== '', 'no active workflow');
    await n8n.request('POST', `/workflows/${workflowId}/deactivate`, {});
    const workflow = await n8n.request<{ active?: boolean }>('GET', `/workflows/${workflowId}`);
    expect(workflow.active === false, `n8n still has it active: ${JSON.stringify(workflow.active)}`);
    const strangers = senders.seen.filter((request) => request.pid === undefined);
    expect(strangers.length === 0, `${strangers.length} requests came from neither n8n process: ${byProcess(strangers)}`);
    return `inactive; ${senders.seen.length} requests reached the service, each from main, the worker or this e2e's own reads`;
  });
} finally {
  await worker?.stop();
  await main?.stop();
  await services?.stop();
  await sandbox.close();
  if (results.some((r) => !r.ok)) {
    for (const instance of [main, worker])
      if (instance) console.log(`\nn8n ${instance.command}'s log (last lines):\n${instance.serverLog().split('\n').slice(-30).join('\n')}`);
  }
  main?.remove();
}

finish();
