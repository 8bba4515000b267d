import lockfile from 'proper-lockfile';
import { CliError } from '../cli-errors.ts';

/**
 * How long a lock may go without its holder refreshing it before another run takes it over:
 * proper-lockfile's holder touches the lock every half of this, so only a holder that was
 * killed (or stopped) lets it age; then the next run waits at most this long.
 */
export const STALE_LOCK_MS = 10_000;

/** How a run waits for a lock another live run holds: about 2.7 minutes in all, longer than a slow look takes. */
export interface LockWait {
  readonly retries: number;
  readonly factor: number;
  readonly minTimeout: number;
  readonly maxTimeout: number;
}
const WAIT: LockWait = { retries: 90, factor: 1.3, minTimeout: 100, maxTimeout: 2_000 };

/** Another run held the state file's lock for longer than a look takes; nothing was looked at. */
export class StateLockedError extends CliError {
  readonly code = 'state_locked';
  override readonly retryable = true;
}

/** The lock was taken over while this run held it (it stalled for longer than STALE_LOCK_MS). */
export class StateLockLostError extends CliError {
  readonly code = 'state_lock_lost';
}

/**
 * Runs `work` holding the state file's lock (`FILE.lock`, a directory made atomically by
 * proper-lockfile), so runs that share a state file take their looks one after another: each
 * reads the state the one before saved, and every change is reported once, none lost. A lock
 * left by a killed run is taken over once it is STALE_LOCK_MS old. `saving` is called before
 * the state is written, and refuses to write it when the lock was lost meanwhile.
 */
export async function withStateLock<T>(file: string, work: (saving: () => void) => Promise<T>, wait: LockWait = WAIT): Promise<T> {
  let lost: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      // The state file need not exist yet: lock its path as given.
      realpath: false,
      stale: STALE_LOCK_MS,
      retries: { ...wait },
      onCompromised: (error) => {
        lost = error;
      },
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOCKED') {
      throw new StateLockedError(
        `Another pagerly on-call watch is using the state file ${file} (its lock ${file}.lock is held); nothing was looked at. Try again.`,
      );
    }
    throw error;
  }
  const saving = () => {
    if (lost) {
      throw new StateLockLostError(
        `The lock of the state file ${file} was taken over by another run while this one looked (${lost.message}); the state was not saved.`,
      );
    }
  };
  try {
    return await work(saving);
  } finally {
    // A lock already taken over is no longer ours to remove.
    if (!lost) await release().catch(() => undefined);
  }
}
