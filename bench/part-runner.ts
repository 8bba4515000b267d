// The bench's side of bench/part-process.ts: runs one part in a fresh process and gives back its
// figures and peak memory, or fails naming what ended it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ended, hold } from '../n8n-app/e2e/cleanup.ts';
import { type FiguresOf, PARTS, type PartId, type PartMessage, type SettingsOf } from './parts.ts';

const PART_PROCESS = fileURLToPath(new URL('./part-process.ts', import.meta.url));
/** What a part's error keeps of its process's standard error: the lines that say why it ended. */
const STDERR_TAIL = 1_500;

export interface PartRun<F> {
  figures: F;
  /** The part's process at its largest: what zapier-platform-core's memory guard would have seen. */
  peakRssMb: number;
}

/** Sends a signal to a part's whole process group (the part and whatever it started); a group already gone is fine. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // No such group any more.
  }
}

/** Runs one part of the bench in a process of its own (below). */
export function runPartProcess<P extends PartId>(id: P, settings: SettingsOf<P>, graceMs?: number): Promise<PartRun<FiguresOf<P>>> {
  const part = PARTS[id];
  return runMeasureInProcess<FiguresOf<P>>(part.module, part.measure, settings, graceMs);
}

/**
 * Runs `measure` (an export of `module`) in `node bench/part-process.ts`, its output passed through as it comes. The
 * process leads a process group of its own: Ctrl-C reaches it from here, once (the bench's
 * clean-up sends SIGTERM and waits for the part to stop what it holds, then SIGKILL to the
 * group after `graceMs`), and whatever it started and left is killed with the group when it ends.
 */
export function runMeasureInProcess<F>(module: URL, measure: string, settings: unknown, graceMs = 30_000): Promise<PartRun<F>> {
  const child = spawn(process.execPath, [...process.execArgv, PART_PROCESS, module.href, measure, JSON.stringify(settings)], {
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    // Structured clone, not JSON: figures keep NaN (a ratio with nothing to divide by) as it is.
    serialization: 'advanced',
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = `${stderr}${chunk}`.slice(-STDERR_TAIL);
  });
  let message: PartMessage | undefined;
  child.on('message', (received) => {
    message = received as PartMessage;
  });
  const release = hold({
    what: `bench part ${measure} (pid ${child.pid})`,
    stop: async () => {
      if (!ended(child)) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      signalGroup(child.pid, 'SIGKILL');
    },
    kill: () => signalGroup(child.pid, 'SIGKILL'),
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      release();
      reject(new Error(`its process could not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      // Anything the part started and did not stop goes with its group.
      signalGroup(child.pid, 'SIGKILL');
      release();
      if (message && 'figures' in message && code === 0) return resolve({ figures: message.figures as F, peakRssMb: message.peakRssMb });
      const why = message && 'error' in message ? message.error : `its process ended (${signal ?? `exit ${code}`}) without figures`;
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      reject(new Error(message && 'error' in message ? why : `${why}${tail ? `: ${tail}` : ''}`));
    });
  });
}
