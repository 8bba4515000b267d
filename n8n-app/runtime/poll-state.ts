import type { OnCallSnapshot } from '../../shared/on-call/changes.ts';
import { POLL_STATE_KEY } from '../names.ts';

/** What the trigger keeps between polls: the team it watched (null: every team) and who was on call then. */
interface PollState {
  readonly team: string | null;
  readonly snapshot: OnCallSnapshot;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The last poll's snapshot, or `undefined` when there is none to compare with: no poll yet, a
 * state of another shape, or one taken for another team. A snapshot of every team compared with
 * a poll of one would report everybody else as gone off call, so a changed Team parameter
 * starts over like a first poll.
 */
export function storedSnapshot(staticData: Record<string, unknown>, team: string | null): OnCallSnapshot | undefined {
  const state = staticData[POLL_STATE_KEY];
  if (!isObject(state) || state.team !== team || !isObject(state.snapshot)) return undefined;
  return state.snapshot as OnCallSnapshot;
}

/**
 * Keeps the snapshot for the next poll. n8n writes static data back to its database when it is
 * touched, so an unchanged snapshot is left alone.
 */
export function storeSnapshot(staticData: Record<string, unknown>, team: string | null, snapshot: OnCallSnapshot): void {
  const state: PollState = { team, snapshot };
  if (JSON.stringify(staticData[POLL_STATE_KEY]) !== JSON.stringify(state)) staticData[POLL_STATE_KEY] = state;
}
