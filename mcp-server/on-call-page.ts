import type { PagerlyClient } from '../shared/client.ts';
import { type OnCallWalk, positionAfter } from '../shared/on-call/by-team.ts';
import { decodeCursor, encodeCursor } from '../shared/on-call/walk-cursor.ts';
import { searchTeamByTeam } from '../shared/operations/search-results.ts';
import type { SearchOperation } from '../shared/operations/types.ts';
import type { ToolCall } from './tool-call.ts';
import { CURSOR, MAX_RESULT_CHARS, type ToolDefinition } from './tools.ts';

/**
 * "Who is on call in every team" as one page of a list a model reads in turns: `limit` bounds
 * the work, not only the answer. The teams are read in id order from the cursor (if any), only
 * until `limit` people are found, a few at a time and no more than those can need; the rest of
 * the list is a `next_cursor` away. A call that runs out of time (ToolCall `timeUp`) answers
 * with the teams read so far rather than meeting the client's time-out; one that is given a
 * progress token says how many teams it has read of how many.
 */
export interface OnCallPage {
  readonly items: Record<string, unknown>[];
  readonly walk: OnCallWalk | undefined;
  /** The cursor after the first `given` items, or undefined when nothing remains after them. */
  cursorAfter(given: number): string | undefined;
}

const count = (n: number) => n.toLocaleString('en-US');

export async function onCallPage(
  tool: Pick<ToolDefinition, 'bounds'>,
  operation: SearchOperation,
  client: PagerlyClient,
  args: Record<string, unknown>,
  input: Record<string, unknown>,
  limit: number,
  call: ToolCall | undefined,
): Promise<OnCallPage> {
  const field = operation.teamByTeam?.field ?? '';
  const filterArg = tool.bounds?.filter?.arg ?? '';
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  // A cursor goes on in the list these arguments chose, and in no other.
  const scope = { [field]: text(input[field]), [filterArg]: text(args[filterArg]) };
  const cursor = text(args[CURSOR]);
  // Refused before any request: the key first, as every call does, then the cursor.
  client.check(operation.endpoint, input);
  const from = cursor === undefined ? undefined : decodeCursor(cursor, scope, CURSOR);
  const wanted = text(args[filterArg])?.trim().toLowerCase();
  const progress = call?.progress;
  const read = searchTeamByTeam(operation, client, input, {
    inIdOrder: true,
    from,
    enough: limit,
    // Nor more than one answer's text holds: what does not fit would be read again by the next page.
    weigh: { results: (items) => JSON.stringify(items).length, most: MAX_RESULT_CHARS },
    teamsMatching: wanted ? (team) => team.name.toLowerCase().includes(wanted) : undefined,
    signal: call?.signal,
    until: call?.timeUp,
    releaseRequests: call?.release,
    onProgress: progress && ((done, total) => total > 0 && progress.report(done, total, `Read who is on call in ${count(done)} of ${count(total)} teams.`)),
  });
  // Whatever the outcome, the last progress goes before the result: none may follow it.
  const { items, walk } = await read.finally(() => progress?.settled());
  return {
    items,
    walk,
    cursorAfter(given) {
      const position = walk && positionAfter(walk, given);
      // A team id is the service's text: one that echoes the key is written with the key taken out.
      return position && encodeCursor({ ...position, teamId: client.redact(position.teamId) }, scope);
    },
  };
}

/**
 * What a page's note says when more remain: how far the read got, why it stopped short of
 * `limit` (time up, or the most that fit in one answer), and how to go on or narrow it.
 */
export function pageNote(page: OnCallPage, shown: number, limit: number, narrow: string): string | undefined {
  const { walk } = page;
  if (!walk) return undefined;
  const read = walk.teamsRead;
  const why =
    walk.stopped === 'until' && shown === page.items.length
      ? ' (Pagerly was slow to answer, or its rate limit asked to wait, so this answer stops early)'
      : shown < limit && shown < page.items.length
        ? ' (the most that fit in one answer)'
        : '';
  return `Showing ${count(shown)} ${shown === 1 ? 'person' : 'people'} on call; ${count(read)} of ${count(walk.teamsTotal)} teams read so far${why}. More remain: call again with the same arguments and ${CURSOR} set to next_cursor for the next ones${narrow}.`;
}
