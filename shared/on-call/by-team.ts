import type { EndpointKey } from '../catalog/endpoints.ts';
import type { PagerlyClient } from '../client.ts';
import { NotFoundError } from '../errors.ts';
import { mapWithLimit } from '../map-with-limit.ts';
import type { OnCallUser } from '../schemas/on-call-user.ts';
import type { Team } from '../schemas/team.ts';
import { noTeamNamed } from './close-matches.ts';

/** The catalog's endpoints behind `onCallByTeam`: what a poller built on it calls, both documented. */
export const ON_CALL_BY_TEAM_ENDPOINTS = ['listTeams', 'listOnCallUsers'] as const satisfies readonly EndpointKey[];

/** How many teams are asked at once: enough to be quick, few enough not to meet a rate limit. */
export const TEAM_LOOKUPS = 4;

/** One team's answer: who is on call, or why that team could not be read. */
export type TeamOnCall = { readonly team: Team; readonly onCall: readonly OnCallUser[] } | { readonly team: Team; readonly error: Error };

/** A person on call, with the team they are on call for (someone on call in two teams is listed twice). */
export type OnCallInTeam = OnCallUser & { readonly team: { readonly id: string; readonly name: string } };

/** What reading who is on call needs of the typed client. */
export type OnCallReader = Pick<PagerlyClient, 'listTeams' | 'listOnCallUsers' | 'redact'>;

/** Names match as the service matches them (assumption `unknown-team`): trimmed, ignoring letter case. */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Who is on call, team by team, from documented calls only: `GET /o/zapier/allteams`, then
 * `GET /o/currentusers?teamname=…` for each team (or for the one named), a few at a time.
 * `currentusers` is never asked without a team: the reference marks `teamname` required.
 * One team's failure is kept beside the others' answers instead of hiding them; a failure to
 * list the teams, or a team name that names none, fails the whole call.
 */
export async function onCallByTeam(client: OnCallReader, options: { team?: string | undefined } = {}): Promise<TeamOnCall[]> {
  const teams = await client.listTeams();
  const wanted = options.team?.trim() ? teams.filter((team) => sameName(team.name, options.team!)) : teams;
  if (options.team?.trim() && wanted.length === 0) {
    // The name as typed and the closest of the service's names are quoted back: the key is taken out of both.
    throw new NotFoundError(client.redact(noTeamNamed(options.team, teams)), { endpoint: 'listOnCallUsers' });
  }
  const answers = await mapWithLimit(wanted, TEAM_LOOKUPS, async (team): Promise<TeamOnCall> => {
    try {
      return { team, onCall: await client.listOnCallUsers({ teamname: team.name }) };
    } catch (error) {
      return { team, error: error instanceof Error ? error : new Error(String(error)) };
    }
  });
  return answers.filter((answer): answer is TeamOnCall => answer !== undefined);
}

/** Everybody on call, each with their team, in the teams' order; the teams that failed beside them. */
export function everyoneOnCall(answers: readonly TeamOnCall[]): { onCall: OnCallInTeam[]; failed: { team: Team; error: Error }[] } {
  const onCall: OnCallInTeam[] = [];
  const failed: { team: Team; error: Error }[] = [];
  for (const answer of answers) {
    if ('error' in answer) failed.push({ team: answer.team, error: answer.error });
    else onCall.push(...answer.onCall.map((user) => ({ ...user, team: { id: answer.team.id, name: answer.team.name } })));
  }
  return { onCall, failed };
}
