// `npm run n8n:e2e`: the built n8n package on the real n8n engine, on each engine line
// (n8n 2.35 on Node 22, the newest pinned 2.x on Node 24), then in queue mode (a main
// instance and a worker, PostgreSQL and Redis). Each part runs in its own process, side by side
// with the others (`-- --serial`: one after another), and prints its own cases behind its tag;
// a summary line per part, exit 1 if any failed.
// `-- --line 2.35` runs that line only (repeatable); `-- --queue-line 2.35` runs queue mode on
// another line, `-- --queue-line none` leaves it out.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildN8nApp } from '../build-n8n-app.ts';
import { ensureEngine, LINES, type LineId } from '../engine/cache.ts';
import { ended, hold, stopOnSignals } from './cleanup.ts';

const { values } = parseArgs({
  options: { line: { type: 'string', multiple: true }, 'queue-line': { type: 'string', default: 'newest' }, serial: { type: 'boolean', default: false } },
});
const known = (id: string): id is LineId => Object.hasOwn(LINES, id);
const lineIds = values.line ?? Object.keys(LINES);
const queueLine = values['queue-line'];
for (const id of [...lineIds, ...(queueLine === 'none' ? [] : [queueLine])])
  if (!known(id)) {
    console.error(`No n8n line "${id}": the lines are ${Object.keys(LINES).join(', ')}.`);
    process.exit(2);
  }

interface Part {
  name: string;
  ok: boolean;
  seconds: number;
}
const parts: Part[] = [];
const started = performance.now();

/** Whether the registry serves a newer n8n 2.x than the newest line's pin: worth a look, never a failure. */
function newerOnRegistry(): string {
  const pinned = LINES.newest.n8n;
  const view = spawnSync('npm', ['view', 'n8n@2', 'version', '--json'], { encoding: 'utf8', timeout: 20_000 });
  if (view.status !== 0) return `could not ask the registry for n8n's newest 2.x (npm exit ${view.status}); the newest line is pinned at ${pinned}`;
  const answer = JSON.parse(view.stdout) as string | string[];
  const versions = (Array.isArray(answer) ? answer : [answer]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const byNumber = (a: string, b: string) => {
    const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  };
  const newest = versions.sort(byNumber).at(-1);
  if (!newest || byNumber(newest, pinned) <= 0) return `n8n ${pinned} is the newest 2.x the registry serves`;
  return `⚠ the registry lists n8n ${newest}, newer than the newest line's pin ${pinned}: try it with PAGERLY_N8N_NEWEST=${newest} npm run n8n:e2e -- --line newest, and if it installs and passes move NEWEST_PIN in n8n-app/engine/cache.ts, then npm run n8n:lock -- --line newest (docs/n8n.md)`;
}

/**
 * One part in its own process (its own sandbox, n8n, ports and folders), each line of its
 * output as it comes, behind the part's tag: the parts run side by side, since most of their
 * time is n8n's scheduled polls coming round rather than work.
 */
function runPart(run: PartRun): Promise<Part> {
  console.log(`== [${run.tag}] ${run.name}`);
  const begin = performance.now();
  // In a process group of its own, so that Ctrl-C reaches the part once, from here, and the
  // part's own clean-up (its servers, then its folders) runs before anything is killed.
  const child = spawn(process.execPath, [fileURLToPath(new URL(run.script, import.meta.url)), ...run.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  const killGroup = () => {
    if (child.pid !== undefined && !ended(child))
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group has already gone.
      }
  };
  const release = hold({
    what: `the ${run.tag} part (pid ${child.pid})`,
    // The part has had SIGTERM (below) and stops its own servers; a part that takes over two minutes is killed, its group with it.
    stop: async () => {
      if (ended(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const timer = setTimeout(killGroup, 120_000);
      await exited;
      clearTimeout(timer);
    },
    kill: killGroup,
  });
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`[${run.tag}] ${line}`));
  return new Promise((resolve) =>
    child.once('close', (status) => {
      running.delete(child);
      release();
      resolve({ name: run.name, ok: status === 0, seconds: (performance.now() - begin) / 1000 });
    }),
  );
}
interface PartRun {
  name: string;
  tag: string;
  script: string;
  args: string[];
}

// Ctrl-C or SIGTERM: every running part is told at once (each stops its own servers and deletes
// its folders), then this waits for them and exits 128 + the signal's number.
const running = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    for (const child of running) child.kill('SIGTERM');
  });
stopOnSignals('n8n end to end');

console.log(newerOnRegistry());

// Each line the parts need, installed (or found in the cache) first, so that a failed install
// is reported once, naming its step, and the other lines still run.
const needed = [...new Set([...lineIds, ...(queueLine === 'none' ? [] : [queueLine])])].filter(known);
const installed = new Set<LineId>();
for (const id of needed) {
  const line = LINES[id];
  const begin = performance.now();
  try {
    const steps = ensureEngine(line);
    console.log(`n8n ${line.n8n} (${id}): ${steps.map((s) => `${s.what}: ${s.reused ? 'cached' : `${s.seconds.toFixed(0)} s`}`).join('; ')}`);
    installed.add(id);
  } catch (error) {
    console.log(`✘ n8n ${line.n8n} (${id}) could not be installed: ${(error as Error).message}`);
    parts.push({ name: `install n8n ${line.n8n} (${id})`, ok: false, seconds: (performance.now() - begin) / 1000 });
  }
}
// Built once, here: every part runs this one package (parts building it side by side would
// rewrite dist/n8n under one another's feet).
const built = await buildN8nApp();
console.log(`n8n package built once for every part: ${built.folder}`);
const runs: PartRun[] = lineIds
  .filter(known)
  .filter((id) => installed.has(id))
  .map((id) => ({
    name: `n8n ${LINES[id].n8n} (${id}): every case on SQLite`,
    tag: id,
    script: './scenario.ts',
    args: ['--line', id, '--package', built.folder],
  }));
if (known(queueLine) && installed.has(queueLine))
  runs.push({
    name: `n8n ${LINES[queueLine].n8n} (${queueLine}) in queue mode: main, worker, PostgreSQL, Redis`,
    tag: 'queue',
    script: './queue.ts',
    args: ['--line', queueLine, '--package', built.folder],
  });
if (values.serial) for (const run of runs) parts.push(await runPart(run));
else parts.push(...(await Promise.all(runs.map(runPart))));

console.log('\nn8n end to end:');
for (const part of parts) console.log(`${part.ok ? '✔' : '✘'} ${part.name.padEnd(72)} ${part.seconds.toFixed(1)} s`);
const failed = parts.filter((part) => !part.ok);
console.log(
  `${failed.length ? `${failed.length} of ${parts.length} parts failed` : `All ${parts.length} parts passed`} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
process.exitCode = failed.length ? 1 : 0;
