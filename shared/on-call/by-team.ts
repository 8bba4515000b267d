import type { EndpointKey } from '../catalog/endpoints.ts';
import type { PagerlyClient } from '../client.ts';
import { NetworkError, NotFoundError, TimeoutError } from '../errors.ts';
import type { OnCallUser } from '../schemas/on-call-user.ts';
import type { Team } from '../schemas/team.ts';
import { noTeamNamed } from './close-matches.ts';
import { indexFrom, inIdOrder } from './team-order.ts';

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

/** Where a walk in id order stopped: the team to read next, and how many of its people were already given. */
export interface WalkPosition {
  readonly teamId: string;
  readonly skip: number;
}

export interface WalkOptions {
  /** Only the team of this name (trimmed, ignoring letter case); one that names none fails. */
  readonly team?: string | undefined;
  /** Only the teams this keeps (a filter on names, so a narrow question sends fewer requests). */
  readonly teamsMatching?: ((team: Team) => boolean) | undefined;
  /**
   * Read the teams in id order (team-order.ts) rather than as the service lists them: the order
   * a walk that is continued later needs, since the list's own order may change meanwhile.
   */
  readonly inIdOrder?: boolean | undefined;
  /** Go on from where an earlier walk in id order stopped. */
  readonly from?: WalkPosition | undefined;
  /**
   * Stop once this many people were found, in order: no team is asked that cannot be needed, the
   * teams asked past the last one needed are given up, and the first team that failed ends the
   * walk (the search it serves fails then anyway).
   */
  readonly enough?: number | undefined;
  /**
   * Beside `enough`, a size: what each team's answer weighs (its share of one answer's text) and
   * the most in all; the walk stops at whichever it reaches first.
   */
  readonly weigh?: { readonly answer: (answer: TeamOnCall) => number; readonly most: number } | undefined;
  /** The caller gave up (a cancelled call, a shutdown): the walk stops and throws. */
  readonly signal?: AbortSignal | undefined;
  /** Time is up: the walk stops and returns the teams read so far, in order. */
  readonly until?: AbortSignal | undefined;
  /**
   * Aborts the requests the walk still has in flight once it no longer needs them; without it,
   * the walk waits for them and ignores their answers. Called at most once, at the end.
   */
  readonly releaseRequests?: (() => void) | undefined;
  /** Told how many teams were read (those before `from` included) of how many, each time that grows. */
  readonly onProgress?: ((read: number, total: number) => void) | undefined;
}

export interface OnCallWalk {
  /** The teams read, in the walk's order; the first leaves out the `skipped` people `from` said were given. */
  readonly answers: readonly TeamOnCall[];
  readonly skipped: number;
  /** Teams read by this walk and the earlier walks it goes on from, and teams in all. */
  readonly teamsRead: number;
  readonly teamsTotal: number;
  /** The first team not read, when the walk stopped before the end. */
  readonly nextTeam: Team | undefined;
  /** Why it stopped before the end: enough people, time up (`until`), or a team that failed. */
  readonly stopped: 'enough' | 'until' | 'failure' | undefined;
}

/** Names match as the service matches them (assumption `unknown-team`): trimmed, ignoring letter case. */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** Resolves when the signal aborts; never, without one. */
const aborted = (signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve(), { once: true })));

/**
 * Who is on call, team by team, from documented calls only: `GET /o/zapier/allteams`, then
 * `GET /o/currentusers?teamname=…` for each team (or for the one named), a few at a time.
 * `currentusers` is never asked without a team: the reference marks `teamname` required.
 * One team's failure is kept beside the others' answers instead of hiding them; a failure to
 * list the teams, or a team name that names none, fails the whole call.
 */
export async function onCallByTeam(client: OnCallReader, options: { team?: string | undefined } = {}): Promise<TeamOnCall[]> {
  return [...(await walkOnCall(client, options)).answers];
}

/**
 * The walk behind every read of who is on call: `onCallByTeam` reads every team; a caller that
 * needs only so many people (`enough`) reads only the teams that can hold them, at most
 * TEAM_LOOKUPS at a time and no more than the people found so far say are needed, and can go on
 * later from `positionAfter`. Answers come back in the walk's order whatever order they arrive in.
 */
export async function walkOnCall(client: OnCallReader, options: WalkOptions = {}): Promise<OnCallWalk> {
  const cancelled = aborted(options.signal);
  const timeUp = aborted(options.until);
  const listing = client.listTeams();
  // Time up before the list came: nothing was read, and nothing can be said to be missing.
  const listed = await Promise.race([listing, timeUp.then(() => undefined)]);
  if (listed === undefined) {
    options.releaseRequests?.();
    await listing.catch(() => undefined);
    throw new TimeoutError('Pagerly did not give the list of teams in the time this call has: try again in a minute.', { endpoint: 'listTeams' });
  }
  const named = options.team?.trim();
  let wanted = named ? listed.filter((team) => sameName(team.name, named)) : listed;
  if (named && wanted.length === 0) {
    // The name as typed and the closest of the service's names are quoted back: the key is taken out of both.
    throw new NotFoundError(client.redact(noTeamNamed(options.team!, listed)), { endpoint: 'listOnCallUsers' });
  }
  if (options.teamsMatching) wanted = wanted.filter(options.teamsMatching);
  const ordered = options.inIdOrder || options.from ? inIdOrder(wanted) : wanted;
  const start = options.from ? indexFrom(ordered, options.from.teamId) : 0;
  const skipped = options.from && ordered[start]?.id === options.from.teamId ? options.from.skip : 0;
  const teams = ordered.slice(start);
  const total = ordered.length;
  const enough = options.enough ?? Number.POSITIVE_INFINITY;
  const weightOf = (answer: TeamOnCall) => (options.weigh && 'onCall' in answer ? options.weigh.answer(answer) : 0);
  const most = options.weigh?.most ?? Number.POSITIVE_INFINITY;

  const answers: (TeamOnCall | undefined)[] = new Array(teams.length).fill(undefined);
  const weights: number[] = new Array(teams.length).fill(0);
  const running = new Map<number, Promise<void>>();
  let started = 0;
  let settledTeams = 0;
  let settledPeople = 0;
  let settledWeight = 0;
  const read = (index: number) => {
    const team = teams[index]!;
    const job = client.listOnCallUsers({ teamname: team.name }).then(
      (onCall): TeamOnCall => ({ team, onCall: index === 0 && skipped ? onCall.slice(skipped) : onCall }),
      (error: unknown): TeamOnCall => ({ team, error: asError(error) }),
    );
    running.set(
      index,
      job.then((answer) => {
        answers[index] = answer;
        settledTeams++;
        if ('onCall' in answer) settledPeople += answer.onCall.length;
        weights[index] = weightOf(answer);
        settledWeight += weights[index];
        running.delete(index);
      }),
    );
  };
  // Another team is worth asking while the ones under way, at the people a team has had so far
  // (one, before any answer), may not bring enough: with two people a team and 10 wanted, about
  // five teams are asked, not 2,000. Teams with nobody on call so far: no telling, ask at full pace.
  // The same for the weight, where one is given.
  const mayNeedMore = (missing: number, settled: number, perTeamBeforeAnswers: number) => {
    const perTeam = settledTeams ? settled / settledTeams : perTeamBeforeAnswers;
    return !Number.isFinite(missing) || perTeam === 0 || running.size * perTeam < missing;
  };
  const worthAsking = () => {
    if (started >= teams.length || running.size >= TEAM_LOOKUPS) return false;
    if (settledPeople >= enough || settledWeight >= most) return false;
    return mayNeedMore(enough - settledPeople, settledPeople, 1) && mayNeedMore(most - settledWeight, settledWeight, 0);
  };

  const inOrder: TeamOnCall[] = [];
  let found = 0;
  let weight = 0;
  const hasEnough = () => found >= enough || weight >= most;
  let stopped: OnCallWalk['stopped'];
  options.onProgress?.(start, total);
  for (;;) {
    const before = inOrder.length;
    while (answers[inOrder.length] !== undefined) {
      const answer = answers[inOrder.length]!;
      inOrder.push(answer);
      if ('onCall' in answer) found += answer.onCall.length;
      else if (Number.isFinite(enough)) stopped = 'failure';
      weight += weights[inOrder.length - 1]!;
      if (stopped || hasEnough()) break;
    }
    if (inOrder.length > before) options.onProgress?.(start + inOrder.length, total);
    if (inOrder.length === teams.length) break;
    if (stopped) break;
    if (hasEnough()) {
      stopped = 'enough';
      break;
    }
    if (options.signal?.aborted) break;
    if (options.until?.aborted) {
      stopped = 'until';
      break;
    }
    while (worthAsking()) read(started++);
    await Promise.race([...running.values(), cancelled, timeUp]);
  }
  if (running.size) {
    options.releaseRequests?.();
    await Promise.all(running.values());
  }
  if (options.signal?.aborted) throw new NetworkError('The read of who is on call was cancelled before it finished.', { endpoint: 'listOnCallUsers' });
  const nextTeam = teams[inOrder.length];
  return { answers: inOrder, skipped, teamsRead: start + inOrder.length, teamsTotal: total, nextTeam, stopped: nextTeam ? stopped : undefined };
}

/**
 * Where a walk goes on after the first `given` people of its answers (a list cut shorter than
 * what was read): in the team of the first person left out, past the ones of it that were
 * given; after the last team read, the first team it did not read; undefined at the end.
 */
export function positionAfter(walk: OnCallWalk, given: number): WalkPosition | undefined {
  let left = given;
  for (const [index, answer] of walk.answers.entries()) {
    const people = 'onCall' in answer ? answer.onCall.length : 0;
    const before = index === 0 ? walk.skipped : 0;
    if (left < people) return { teamId: answer.team.id, skip: before + left };
    left -= people;
  }
  return walk.nextTeam && { teamId: walk.nextTeam.id, skip: 0 };
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
