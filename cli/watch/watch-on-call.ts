import { isPagerlyError } from '../../shared/errors.ts';
import { onCallByTeam, type OnCallReader } from '../../shared/on-call/by-team.ts';
import { changesBetween, nextSnapshot, type OnCallChange, type OnCallSnapshot } from '../../shared/on-call/changes.ts';
import { pause } from './interval.ts';
import { readWatchState, writeWatchState } from './state-file.ts';
import { withStateLock } from './state-lock.ts';

export interface WatchOptions {
  readonly client: OnCallReader;
  readonly team?: string | undefined;
  readonly intervalMs: number;
  /** Where the last look is kept, so a restart reports what changed while it was stopped. */
  readonly stateFile?: string | undefined;
  /** Ends the watch after the look under way. */
  readonly signal: AbortSignal;
  /** Aborted when the look under way is cut (the shutdown deadline): it is not saved, and the watch ends. */
  readonly cut?: AbortSignal | undefined;
  /** Runs each look counted as work in flight (shared/shutdown/drain.ts). */
  readonly track?: <T>(look: () => Promise<T>) => Promise<T>;
  /** One look, then stop: with a state file, what changed since the last run (for a cron job). */
  readonly once?: boolean;
  readonly emit: (change: OnCallChange) => void;
  readonly note: (text: string) => void;
  readonly now?: () => Date;
  readonly wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
const people = (snapshot: OnCallSnapshot) => Object.values(snapshot).reduce((sum, team) => sum + team.onCall.length, 0);

/**
 * Looks at who is on call every `intervalMs`, from documented calls only (the teams, then each
 * team's on-call people), and emits one change per person going on or off call. The first look
 * without a state file only learns who is on call. A failure the service may get over (rate
 * limit, 5xx, network) is said and tried again at the next look; any other ends the watch.
 */
export async function watchOnCall(options: WatchOptions): Promise<void> {
  const { client, intervalMs, signal, emit, note } = options;
  const now = options.now ?? (() => new Date());
  const wait = options.wait ?? pause;
  const team = options.team?.trim() || null;
  const stateFile = options.stateFile;
  let previous: OnCallSnapshot | undefined;
  let first = true;
  /**
   * One look: the last state, the teams, the changes, the new state. With a state file it is
   * read and written under its lock, every look: another run (a cron job overlapping this one,
   * or another watch) may have saved a later look meanwhile, and this look must start from it.
   */
  const look = async (saving: () => void) => {
    if (stateFile) previous = readWatchState(stateFile, team, note);
    const answers = await onCallByTeam(client, { team: team ?? undefined });
    // A look cut at the deadline holds failures it did not meet: neither said nor saved.
    if (options.cut?.aborted) throw options.cut.reason;
    const snapshot = nextSnapshot(previous, answers);
    const changes = changesBetween(previous, snapshot, now());
    // Said before saved: a run that stops in between says them again next time rather than never.
    for (const change of changes) emit(change);
    if (stateFile) {
      saving();
      writeWatchState(stateFile, { version: 1, team, savedAt: now().toISOString(), snapshot });
    }
    for (const answer of answers) {
      if ('error' in answer) note(`Could not read who is on call in ${answer.team.name}: ${answer.error.message} It is read again at the next look.`);
    }
    if (first && !options.once) {
      const since = previous === undefined ? '' : ' Changes since the state file was written were printed first.';
      note(
        `Watching ${answers.length} team${answers.length === 1 ? '' : 's'} every ${seconds(intervalMs)}: ${people(snapshot)} on call now.${since} Ctrl-C stops.`,
      );
      first = false;
    }
    previous = snapshot;
  };
  const track = options.track ?? ((work) => work());
  while (!signal.aborted) {
    try {
      await track(() => (stateFile ? withStateLock(stateFile, look) : look(() => undefined)));
    } catch (error) {
      if (options.cut?.aborted) {
        note(
          `The look under way was cut at the shutdown deadline; ${stateFile ? `${stateFile} keeps the look before it, and the next run reports what changed since` : 'it was not finished'}.`,
        );
        return;
      }
      if (options.once || !(isPagerlyError(error) && error.retryable)) throw error;
      note(`${error.message} Looking again in ${seconds(intervalMs)}.`);
    }
    if (options.once) return;
    await wait(intervalMs, signal);
  }
  note(options.stateFile ? `Stopped; the last look is kept in ${options.stateFile}.` : 'Stopped.');
}
