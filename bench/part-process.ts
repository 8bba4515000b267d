// One part of `npm run bench` in a process of its own: `node bench/part-process.ts <module URL>
// <export> <settings as JSON>`, started by bench/part-runner.ts with an IPC channel, over which
// it sends the figures the export measured (or why it failed) and its peak memory, then exits.
// A fresh process per part: zapier-platform-core's memory guard (process.exit(1) once a process
// has served 250 calls above 450 MB resident) sees only that part's memory, never the sandbox,
// hooks and load of the parts before it; were it to fire, that part fails by name and the
// bench goes on.
import { stopEverythingHeld, stopOnSignals } from '../n8n-app/e2e/cleanup.ts';
import type { PartMessage } from './parts.ts';

const [module, name, settings] = process.argv.slice(2);
if (!module || !name || settings === undefined || !process.send) {
  console.error('usage (from bench/part-runner.ts, with an IPC channel): node bench/part-process.ts <module URL> <export> <settings JSON>');
  process.exit(2);
}
// Ctrl-C reaches the part through the bench (the part leads its own process group): what the
// part started and holds (n8n and its folder) is stopped before it exits; likewise if the bench dies.
stopOnSignals(`bench part ${name}`);
process.once('disconnect', () => void stopEverythingHeld().finally(() => process.exit(1)));

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
let message: PartMessage;
try {
  const measure = ((await import(module)) as Record<string, unknown>)[name];
  if (typeof measure !== 'function') throw new Error(`${module} exports no function ${name}`);
  message = { figures: await measure(JSON.parse(settings)), peakRssMb: peakRssMb() };
} catch (error) {
  message = { error: error instanceof Error ? error.message : String(error), peakRssMb: peakRssMb() };
}
// Whatever a part leaves open (keep-alive sockets, timers), it is done once its figures are sent.
process.send(message, () => process.exit('error' in message ? 1 : 0));
