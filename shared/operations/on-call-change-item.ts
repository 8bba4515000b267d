import { createHash } from 'node:crypto';
import { InvalidResponseError } from '../errors.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../http/json.ts';
import { ON_CALL_CHANGED } from '../schemas/on-call-change-event.ts';
import type { OnCallUser } from '../schemas/on-call-user.ts';
import type { Team } from '../schemas/team.ts';
import { onCallChanged } from './on-call-changed.ts';
import { shapeItem } from './item-shape.ts';

export type OnCallChangeItem = Record<string, unknown> & { id: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A payload without an id still needs a stable one: neither Zapier (REST hooks are not
 * deduplicated, integration checks D010/T002: "Hooks are not deduped") nor Make drops a
 * redelivery, so the id is what a Zap builder filters repeats on, and it must not change.
 */
function stableId(payload: unknown): string {
  return `unrecognized_${createHash('sha256')
    .update(JSON.stringify(payload) ?? 'undefined')
    .digest('hex')
    .slice(0, 16)}`;
}

/**
 * A delivered payload as the trigger's item. A payload of an unexpected shape is passed on
 * (its fields kept, or under `payload` when it is not an object) with a stable id and the
 * time it was received: an on-call change is never dropped because its shape surprised us.
 */
export function onCallChangeItem(payload: unknown, receivedAt: Date, eventIdHeader?: string): OnCallChangeItem {
  // Deeper than any answer may be, it would overflow the stack of whatever walks it next (the
  // id's hash, the platform's output handling): refused as the API reader refuses such an answer.
  if (nestedDeeperThan(payload)) {
    throw new InvalidResponseError(
      `The delivered on-call change is nested deeper than ${MAX_JSON_DEPTH} levels, which no event of the service is; it was not read.`,
    );
  }
  const item: Record<string, unknown> = isObject(payload) ? shapeItem(onCallChanged.item, { body: payload }) : { payload };
  const id = item.id;
  // A blank id is no id: a Zap builder filtering on it would take every later id-less event for a repeat.
  const usable = typeof id === 'number' || (typeof id === 'string' && id.trim() !== '');
  item.id = usable ? String(id).trim() : eventIdHeader?.trim() || stableId(payload);
  if (item.occurred_at === null || item.occurred_at === undefined) item.occurred_at = receivedAt.toISOString();
  if (item.type === null || item.type === undefined) item.type = 'unrecognized';
  return item as OnCallChangeItem;
}

const sameTeam = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether an item belongs to the chosen team; an item that names no team is kept, not guessed away. */
export function isForTeam(item: Record<string, unknown>, teamname: string | undefined): boolean {
  if (!teamname?.trim()) return true;
  const name = isObject(item.team) ? item.team.name : undefined;
  return typeof name !== 'string' || sameTeam(name, teamname);
}

/**
 * Who is on call now, shaped exactly like a hook item, the same `type` included (nobody
 * "before"), so a platform's test step and field mapping work before any change has happened
 * (integration check D006: a poll result must look like a hook).
 */
export function currentOnCallItem(team: Team, users: readonly OnCallUser[], now: Date): OnCallChangeItem {
  const ids = users.map((user) => user.id).join('+') || 'nobody';
  return onCallChangeItem(
    {
      id: `current_${team.id}_${ids}`,
      type: ON_CALL_CHANGED,
      occurred_at: now.toISOString(),
      team: { id: team.id, name: team.name },
      previous: [],
      current: users,
    },
    now,
  );
}

export const findTeam = (teams: readonly Team[], name: string): Team | undefined => teams.find((team) => sameTeam(team.name, name));
