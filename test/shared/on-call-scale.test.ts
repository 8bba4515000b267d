import { describe, expect, it } from '@jest/globals';
import { findOnCallUsers } from '../../shared/operations/searches.ts';
import { runSearch, type SearchClient } from '../../shared/operations/search-results.ts';
import { RateLimitError } from '../../shared/errors.ts';

/**
 * "Everyone on call" at the size of a large organisation, through the shaping every search
 * surface runs (Zapier, n8n, MCP: shared/operations/search-results.ts), on an in-memory
 * service: what comes out must grow with the people on call, not with their square. Not timed:
 * speed is `npm run bench` (its part "Scale"), which runs every surface on the sandbox.
 */

/** `teams` teams, two people on call in each; team i shares person i+1 with team i+1, so everyone is on call in two teams. */
function organisation(teams: number): SearchClient {
  const teamList = Array.from({ length: teams }, (_, i) => ({ id: `team_${i}`, name: `Team ${i}` }));
  const person = (i: number) => {
    const n = i % teams;
    return { id: `usr_${n}`, name: `Person ${n}`, email: `person.${n}@acme.example`, imageurl: `https://images.acme.example/${n}.png` };
  };
  return {
    check: () => undefined,
    send: () => Promise.reject(new Error('read team by team only')),
    redact: (text: string) => text,
    listTeams: async () => teamList,
    listOnCallUsers: async (input?: { teamname?: string }) => {
      const i = Number(input?.teamname?.slice('Team '.length));
      return [person(i), person(i + 1)];
    },
  } as unknown as SearchClient;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('everyone on call at 2,000 teams × 2 people', () => {
  it('is one result per person and team, each under 1 KB, and the whole answer grows linearly', async () => {
    const large = await runSearch(findOnCallUsers, organisation(2_000), {});
    const small = await runSearch(findOnCallUsers, organisation(200), {});
    expect(large).toHaveLength(4_000);
    expect(small).toHaveLength(400);
    for (const item of large) expect(bytesOf(item)).toBeLessThan(1_024);
    // Ten times the teams, ten times the bytes (give or take the longer numbers in the names);
    // summing up every team in every result made it a hundred times.
    const ratio = bytesOf(large) / bytesOf(small);
    expect(ratio).toBeGreaterThan(9);
    expect(ratio).toBeLessThan(11);
  });

  it('sums up each team once in its results, naming each of its people once, and each person is in the summary of each of their teams', async () => {
    const results = (await runSearch(findOnCallUsers, organisation(2_000), {})) as {
      name: string;
      team: { name: string };
      on_call_names: string;
      on_call_emails: string;
      on_call_count: number;
    }[];
    const summaries = new Map<string, string>();
    for (const result of results) {
      const names = result.on_call_names.split(', ');
      expect(new Set(names).size).toBe(names.length);
      expect(names).toContain(result.name);
      expect(result.on_call_count).toBe(2);
      expect(result.on_call_emails.split(', ')).toHaveLength(2);
      // Every result of a team carries the same summary: it is the team's, not the result's.
      const before = summaries.get(result.team.name);
      if (before !== undefined) expect(result.on_call_names).toBe(before);
      summaries.set(result.team.name, result.on_call_names);
    }
    expect(summaries.size).toBe(2_000);
    // Person 1 is on call in Team 0 and Team 1: one result in each, and in both summaries.
    expect(results.filter((r) => r.name === 'Person 1').map((r) => r.team.name)).toEqual(['Team 0', 'Team 1']);
    expect(summaries.get('Team 0')).toBe('Person 0, Person 1');
    expect(summaries.get('Team 1')).toBe('Person 1, Person 2');
  });
});

describe('everyone on call when most of 2,000 teams cannot be read', () => {
  it('fails naming ten of them and how many more, keeping the error kind (a rate limit met halfway)', async () => {
    const base = organisation(2_000);
    const client = {
      ...base,
      listOnCallUsers: async (input?: { teamname?: string }) => {
        const i = Number(input?.teamname?.slice('Team '.length));
        if (i >= 600) throw new RateLimitError('Pagerly is rate limiting this API key; retry after 57 seconds.', 57);
        return base.listOnCallUsers(input);
      },
    } as SearchClient;
    const failure = (await runSearch(findOnCallUsers, client, {}).catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(failure.message).toBe(
      'Could not read who is on call in Team 600, Team 601, Team 602, Team 603, Team 604, Team 605, Team 606, Team 607, Team 608, Team 609 and 1,390 more (Pagerly is rate limiting this API key; retry after 57 seconds.); the other 600 teams were read, but a list without those teams would miss people. Try again.',
    );
  });
});
