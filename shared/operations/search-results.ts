import type { PagerlyClient } from '../client.ts';
import { NotFoundError } from '../errors.ts';
import { onCallByTeam, type OnCallReader, type TeamOnCall } from '../on-call/by-team.ts';
import { someNames } from '../on-call/close-matches.ts';
import { shapeItems } from './item-shape.ts';
import type { SearchOperation } from './types.ts';

/** An empty success body (read as `{}`) found nothing. */
const isEmptyObject = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/**
 * A search's results from its endpoint's answer, as every platform shows them: one item per
 * element (or the one entry), shaped by the description; "not found" is no result when the
 * description says so. `call` sends the request; errors other than that not-found pass through.
 */
export async function searchResults(operation: SearchOperation, call: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  let body: unknown;
  try {
    body = await call();
  } catch (error) {
    if (operation.notFoundIsEmpty && error instanceof NotFoundError) return [];
    throw error;
  }
  const elements = operation.results === 'each-element' ? (Array.isArray(body) ? body : []) : isEmptyObject(body) ? [] : [body];
  return shapeItems(operation.item, body, elements);
}

/** What a search needs of the typed client, as each platform builds it. */
export type SearchClient = Pick<PagerlyClient, 'send' | 'check'> & OnCallReader;

/**
 * A search as every platform runs it: its endpoint with the user's input, or, for a search read
 * team by team (`teamByTeam`), the documented team list and then each team by name. A team
 * that could not be read fails the whole search, naming it and saying the others were read: a
 * list of "everyone on call" that silently lacks a team would page nobody of that team.
 *
 * Read team by team, each result is one person on call in one team, with that team; the
 * answer an item's summary fields read (`body`) is its own team's, as when one team is asked
 * (and as Make, which asks one team a run, shows it). So a summary is worked out once per
 * team and names its people as the team's answer lists them (each once: assumption
 * `currentusers-all-teams`), and the output grows with the people on call, not with their
 * square: someone on call in two teams is two results, one in each team's summary.
 */
export function runSearch(operation: SearchOperation, client: SearchClient, input: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const byTeam = operation.teamByTeam;
  if (!byTeam) return searchResults(operation, () => client.send(operation.endpoint, input));
  // Refused before any request, as the single call would be: the key, then the team's name.
  client.check(operation.endpoint, input);
  return teamByTeamResults(operation, async () => {
    const team = input[byTeam.field];
    const answers = await onCallByTeam(client, { team: typeof team === 'string' ? team : undefined });
    const failed = answers.flatMap((answer) => ('error' in answer ? [answer] : []));
    const first = failed[0];
    if (first) {
      const read = answers.length - failed.length;
      const names = someNames(failed.map((f) => f.team.name));
      // The error keeps its kind (status, retryable) for each surface to map; its message says more.
      first.error.message = client.redact(
        `Could not read who is on call in ${names} (${first.error.message})${read ? `; the other ${read} team${read === 1 ? ' was' : 's were'} read, but a list without ${failed.length === 1 ? 'that team' : 'those teams'} would miss people` : ''}. Try again.`,
      );
      throw first.error;
    }
    return answers;
  });
}

/** One team's people as results: each with its team, the summaries over that team's answer. */
async function teamByTeamResults(operation: SearchOperation, read: () => Promise<readonly TeamOnCall[]>): Promise<Record<string, unknown>[]> {
  let answers: readonly TeamOnCall[];
  try {
    answers = await read();
  } catch (error) {
    if (operation.notFoundIsEmpty && error instanceof NotFoundError) return [];
    throw error;
  }
  return answers.flatMap((answer) => {
    if ('error' in answer) return [];
    const team = { id: answer.team.id, name: answer.team.name };
    return shapeItems(
      operation.item,
      answer.onCall,
      answer.onCall.map((user) => ({ ...user, team })),
    );
  });
}
