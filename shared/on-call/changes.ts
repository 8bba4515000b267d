import type { OnCallUser } from '../schemas/on-call-user.ts';
import type { TeamOnCall } from './by-team.ts';

/**
 * Who was on call in each team at the last look, keyed by team id (a renamed team is the same
 * team). Small and plain JSON, so a poller keeps it in its platform's store (n8n's static data,
 * the CLI's state file) between looks.
 */
export interface OnCallSnapshot {
  readonly [teamId: string]: { readonly name: string; readonly onCall: readonly OnCallUser[] };
}

/**
 * The kinds of change a poller emits, as its items' `type` says them: workflows, filters and
 * scripts branch on these values, so the interface reports list them (n8n's trigger, the CLI's
 * `on-call watch --json`).
 */
export const ON_CALL_CHANGE_TYPES = { started: 'on_call_started', ended: 'on_call_ended' } as const;

/** One person going on or off call in one team, as a poller emits it. */
export interface OnCallChange {
  readonly type: (typeof ON_CALL_CHANGE_TYPES)[keyof typeof ON_CALL_CHANGE_TYPES];
  readonly team: { readonly id: string; readonly name: string };
  readonly user: OnCallUser;
  /** When the poller saw the change (the service does not say when it happened). */
  readonly detected_at: string;
}

/** A person is the same person by id; a service that gives none is matched by e-mail. */
const identity = (user: OnCallUser) => (user.id ? `id:${user.id}` : `email:${user.email.toLowerCase()}`);

/**
 * The snapshot after a look. A team whose read failed keeps what was last known of it, so a
 * passing failure is not taken for everybody going off call (and back on at the next look).
 */
export function nextSnapshot(previous: OnCallSnapshot | undefined, answers: readonly TeamOnCall[]): OnCallSnapshot {
  const next: Record<string, OnCallSnapshot[string]> = {};
  for (const answer of answers) {
    if ('error' in answer) {
      const known = previous?.[answer.team.id];
      if (known) next[answer.team.id] = known;
    } else {
      next[answer.team.id] = { name: answer.team.name, onCall: answer.onCall.map((user) => ({ ...user })) };
    }
  }
  return next;
}

/**
 * What changed between two looks, one entry per person and team: those who went off call
 * first, then those who came on, teams in the order of the current look. Without a previous
 * look nothing changed: the first look only learns who is on call. A team that is new since
 * the last look has its people come on call; a team that is gone has its people go off.
 */
export function changesBetween(previous: OnCallSnapshot | undefined, current: OnCallSnapshot, detectedAt: Date): OnCallChange[] {
  if (previous === undefined) return [];
  const detected_at = detectedAt.toISOString();
  const ended: OnCallChange[] = [];
  const started: OnCallChange[] = [];
  const teamIds = [...new Set([...Object.keys(current), ...Object.keys(previous)])];
  for (const id of teamIds) {
    const before = previous[id]?.onCall ?? [];
    const after = current[id]?.onCall ?? [];
    const team = { id, name: current[id]?.name ?? previous[id]!.name };
    const was = new Set(before.map(identity));
    const is = new Set(after.map(identity));
    for (const user of before) if (!is.has(identity(user))) ended.push({ type: ON_CALL_CHANGE_TYPES.ended, team, user, detected_at });
    for (const user of after) if (!was.has(identity(user))) started.push({ type: ON_CALL_CHANGE_TYPES.started, team, user, detected_at });
  }
  return [...ended, ...started];
}
