import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

/**
 * What a run has started and must undo however it ends: servers (PostgreSQL, Redis, n8n) and
 * temporary folders. Each holder undoes itself on the normal path (`stop()`, `remove()`) and
 * lets go; what is still held when the run is interrupted is undone here:
 * - on SIGINT, SIGTERM or SIGHUP (once `stopOnSignals()` is called), each `stop` in turn, the
 *   newest first (the worker before n8n main before PostgreSQL, a server before its folder),
 *   then the process exits 128 + the signal's number;
 * - on any exit with something still held (an exception, `process.exit`), each `kill`: only
 *   synchronous work is possible there, so a server gets SIGKILL and a folder is deleted.
 * Servers started inside this process (the sandbox, loopback servers) end with it.
 */
export interface Held {
  /** What it is, for the line printed while stopping it. */
  readonly what: string;
  /** The orderly way: a server's own shutdown, then its folder. */
  stop(): Promise<void> | void;
  /** The last resort, synchronous: SIGKILL, rmSync. */
  kill(): void;
}

const held: Held[] = [];
let exitHookInstalled = false;

/** Holds something until the returned function lets it go (call it once it is undone). */
export function hold(thing: Held): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killEverythingHeld);
  }
  held.push(thing);
  return () => {
    const index = held.indexOf(thing);
    if (index >= 0) held.splice(index, 1);
  };
}

/** Holds a child process: SIGTERM (then SIGKILL after `graceMs`) when stopped, SIGKILL as the last resort. */
export function holdChild(what: string, child: ChildProcess, graceMs = 15_000, signal: NodeJS.Signals = 'SIGTERM'): () => void {
  const release = hold({ what, stop: () => stopChild(child, signal, graceMs), kill: () => killChild(child) });
  child.once('exit', release);
  // A program that could not be started at all has no process to stop.
  child.once('error', () => {
    if (child.pid === undefined) release();
  });
  return release;
}

/** Holds a temporary folder until the returned function deletes it; the run's clean-up deletes it if that never comes. */
export function holdFolder(folder: string): () => void {
  const remove = () => rmSync(folder, { recursive: true, force: true });
  const release = hold({ what: folder, stop: remove, kill: remove });
  return () => {
    remove();
    release();
  };
}

/** Whether a child process has ended (by itself or by a signal). */
export function ended(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal`, waits for the exit, and sends SIGKILL if it takes longer than `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (ended(child) || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function killChild(child: ChildProcess): void {
  if (!ended(child) && child.pid !== undefined) child.kill('SIGKILL');
}

/** Everything still held, undone in order, the newest first; a failure is printed and the rest still undone. */
export async function stopEverythingHeld(say: (line: string) => void = (line) => console.error(line)): Promise<void> {
  while (held.length) {
    const thing = held.pop()!;
    try {
      say(`  stopping ${thing.what}`);
      await thing.stop();
    } catch (error) {
      say(`  could not stop ${thing.what}: ${(error as Error).message}`);
      thing.kill();
    }
  }
}

function killEverythingHeld(): void {
  while (held.length) {
    const thing = held.pop()!;
    try {
      thing.kill();
    } catch {
      // Exiting: nothing more can be done for this one, and the others must still be killed.
    }
  }
}

let stopping = false;

/**
 * SIGINT (Ctrl-C), SIGTERM and SIGHUP stop everything held, then exit 128 + the signal's number.
 * A signal that comes while stopping (the terminal sends Ctrl-C to the whole process group) is
 * noted, not obeyed: the stop already under way ends with SIGKILL where a server is slow.
 */
export function stopOnSignals(name: string): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.error(`\n${name}: ${signal}, stopping what it started`);
      void stopEverythingHeld().finally(() => process.exit(128 + constants.signals[signal]));
    });
}
