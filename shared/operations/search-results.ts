import type { PagerlyClient } from '../client.ts';
import { NotFoundError, TimeoutError } from '../errors.ts';
import { type OnCallReader, type OnCallWalk, type TeamOnCall, type WalkOptions, walkOnCall } from '../on-call/by-team.ts';
import { quotedName, someNames } from '../on-call/close-matches.ts';
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
 * How a search read team by team is walked (by-team.ts `WalkOptions`); the team named in the
 * input is the search's, and a size is weighed on each team's results, shaped once.
 */
export type SearchWalk = Omit<WalkOptions, 'team' | 'weigh'> & {
  readonly weigh?: { readonly results: (items: Record<string, unknown>[]) => number; readonly most: number } | undefined;
};

/**
 * A search as every platform runs it: its endpoint with the user's input, or, for a search read
 * team by team (`teamByTeam`), the documented team list and then each team by name. A team
 * that could not be read fails the whole search, naming it and saying the others were read: a
 * list of "everyone on call" that silently lacks a team would page nobody of that team.
 * `walk.enough` bounds the work to the first so many results (n8n's Limit, MCP's `limit`): the
 * results are the same first ones, read with fewer requests.
 *
 * Read team by team, each result is one person on call in one team, with that team; the
 * answer an item's summary fields read (`body`) is its own team's, as when one team is asked
 * (and as Make, which asks one team a run, shows it). So a summary is worked out once per
 * team and names its people as the team's answer lists them (each once: assumption
 * `currentusers-all-teams`), and the output grows with the people on call, not with their
 * square: someone on call in two teams is two results, one in each team's summary.
 */
export async function runSearch(
  operation: SearchOperation,
  client: SearchClient,
  input: Record<string, unknown>,
  walk: SearchWalk = {},
): Promise<Record<string, unknown>[]> {
  if (!operation.teamByTeam) return searchResults(operation, () => client.send(operation.endpoint, input));
  return (await searchTeamByTeam(operation, client, input, walk)).items;
}

/** The first team that could not be read, as the failure of the whole search: naming it, and saying the others were read. */
function throwFailure({ answers }: OnCallWalk, client: Pick<SearchClient, 'redact'>): void {
  const failed = answers.flatMap((answer) => ('error' in answer ? [answer] : []));
  const first = failed[0];
  if (!first) return;
  const read = answers.length - failed.length;
  const names = someNames(failed.map((f) => f.team.name));
  // The error keeps its kind (status, retryable) for each surface to map; its message says more.
  first.error.message = client.redact(
    `Could not read who is on call in ${names} (${first.error.message})${read ? `; the other ${read} team${read === 1 ? ' was' : 's were'} read, but a list without ${failed.length === 1 ? 'that team' : 'those teams'} would miss people` : ''}. Try again.`,
  );
  throw first.error;
}

/** A search read team by team: its results and the walk that read them (where it stopped, how many teams). */
export interface TeamByTeamResults {
  readonly items: Record<string, unknown>[];
  readonly walk: OnCallWalk | undefined;
}

/** `runSearch` for a search read team by team, with the walk it made; `walk` is undefined where "not found" was no result. */
export async function searchTeamByTeam(
  operation: SearchOperation,
  client: SearchClient,
  input: Record<string, unknown>,
  options: SearchWalk = {},
): Promise<TeamByTeamResults> {
  const field = operation.teamByTeam?.field ?? '';
  // Refused before any request, as the single call would be: the key, then the team's name.
  client.check(operation.endpoint, input);
  const shaped = new WeakMap<TeamOnCall, Record<string, unknown>[]>();
  const resultsOf = (answer: TeamOnCall) => {
    const known = shaped.get(answer);
    if (known) return known;
    const results = teamResults(operation, answer);
    shaped.set(answer, results);
    return results;
  };
  const { weigh, ...rest } = options;
  let walk: OnCallWalk;
  try {
    const team = input[field];
    walk = await walkOnCall(client, {
      ...rest,
      team: typeof team === 'string' ? team : undefined,
      weigh: weigh && { answer: (answer) => weigh.results(resultsOf(answer)), most: weigh.most },
    });
    throwFailure(walk, client);
  } catch (error) {
    if (operation.notFoundIsEmpty && error instanceof NotFoundError) return { items: [], walk: undefined };
    throw error;
  }
  const { answers } = walk;
  // Time up before any team answered: an empty list would read as "nobody is on call".
  if (walk.stopped === 'until' && answers.length === 0 && walk.nextTeam)
    throw new TimeoutError(
      client.redact(
        `Pagerly did not say who is on call in ${quotedName(walk.nextTeam.name)} in the time this call has (the service is slow, or its rate limit asks to wait), so nothing was read. Try again in a minute.`,
      ),
      { endpoint: 'listOnCallUsers' },
    );
  return { items: answers.flatMap(resultsOf), walk };
}

/** One team's people as results: each with its team, the summaries over that team's answer. */
function teamResults(operation: SearchOperation, answer: TeamOnCall): Record<string, unknown>[] {
  if ('error' in answer) return [];
  const team = { id: answer.team.id, name: answer.team.name };
  return shapeItems(
    operation.item,
    answer.onCall,
    answer.onCall.map((user) => ({ ...user, team })),
  );
}
