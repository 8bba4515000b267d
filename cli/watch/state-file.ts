import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { OnCallSnapshot } from '../../shared/on-call/changes.ts';

/** What `on-call watch --state FILE` keeps between runs: the last look, and which team it was of. */
export interface WatchState {
  readonly version: 1;
  /** The `--team` it watched (null: every team): a look at other teams is no baseline for this one. */
  readonly team: string | null;
  readonly savedAt: string;
  readonly snapshot: OnCallSnapshot;
}

/** The last look for this team filter, or undefined (no file yet, another filter, or unreadable: said by `warn`). */
export function readWatchState(file: string, team: string | null, warn: (text: string) => void): OnCallSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') warn(`Cannot read the state file ${file} (${(error as { code?: string }).code}); starting afresh.`);
    return undefined;
  }
  try {
    const state = JSON.parse(text) as Partial<WatchState>;
    if (state.version !== 1 || typeof state.snapshot !== 'object' || state.snapshot === null) throw new Error('not a watch state');
    if ((state.team ?? null) !== team) {
      warn(
        `The state file ${file} was written for ${state.team ? `team ${state.team}` : 'every team'}; starting afresh for ${team ? `team ${team}` : 'every team'}.`,
      );
      return undefined;
    }
    return state.snapshot;
  } catch {
    warn(`The state file ${file} is not a watch state; starting afresh (it will be overwritten).`);
    return undefined;
  }
}

/**
 * Written whole to a file beside it, then renamed over it: a crash leaves the old state or the new,
 * never half. The partial file's name can be guessed (the pid), and the state may sit in a shared
 * folder such as /tmp: it is made new (`wx`, O_CREAT|O_EXCL, which follows no symlink), so a link
 * another user planted there is removed, never written through to the file it names. Owner-only,
 * as it lists who is on call.
 */
export function writeWatchState(file: string, state: WatchState): void {
  const partial = `${file}.${process.pid}.tmp`;
  // A leftover of a killed run with the same pid, or a planted link: unlinking removes the link itself.
  rmSync(partial, { force: true });
  writeFileSync(partial, `${JSON.stringify(state, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  renameSync(partial, file);
}
