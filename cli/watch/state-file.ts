import { readFileSync } from 'node:fs';
import { writeWholeFile } from '../../shared/whole-file.ts';
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

/** Written whole or not at all (a crash leaves the old state or the new), owner-only: it lists who is on call. */
export function writeWatchState(file: string, state: WatchState): void {
  writeWholeFile(file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
}
