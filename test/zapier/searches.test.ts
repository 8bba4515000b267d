import { describe, expect, it } from '@jest/globals';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay, replaySteps } from './replay.ts';
import { appTester, authData, expectNoKey, failureOf, performOf } from './support.ts';

offlineNock();

const findOnCallUsers = performOf('searches', 'find_on_call_users');
const findDirectoryEntry = performOf('searches', 'find_directory_entry');

describe('find_on_call_users', () => {
  // Documented calls only: the team list, then the team by name (never currentusers without a team).
  it("returns each person on call with their team, each carrying the team's names, e-mails and count", async () => {
    const scopes = replay('list-teams', 'on-call-team');
    const results = await appTester(findOnCallUsers, { authData, inputData: { teamname: 'Platform' } });
    expectAllUsed(scopes);
    expect(results).toEqual([
      {
        id: 'usr_alan',
        name: 'Alan Turing',
        email: 'alan@acme.example',
        imageurl: 'https://images.acme.example/alan.png',
        team: { id: 'team_platform', name: 'Platform' },
        on_call_names: 'Alan Turing',
        on_call_emails: 'alan@acme.example',
        on_call_count: 1,
      },
    ]);
  });

  it("with no team, asks every team by name: one result per person and team, in the teams' order, each summing up its own team only", async () => {
    const scopes = replay('on-call-every-team');
    const results = (await appTester(findOnCallUsers, { authData, inputData: { teamname: '' } })) as Record<string, unknown>[];
    expectAllUsed(scopes);
    const teams = recordedResponse('on-call-every-team', 0) as { id: string; name: string }[];
    const expected = teams.flatMap((team, index) =>
      (recordedResponse('on-call-every-team', index + 1) as { id: string; name: string; email: string }[]).map((user) => ({
        ...user,
        team: { id: team.id, name: team.name },
      })),
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(results.map((r) => [r.id, (r.team as { name: string }).name])).toEqual(expected.map((u) => [u.id, u.team.name]));
    // The summary is the item's team's, so the answer grows with the people, not their square.
    expect(new Set(expected.map((u) => u.team.name)).size).toBeGreaterThan(1);
    for (const result of results) {
      const team = expected.filter((u) => u.team.name === (result.team as { name: string }).name);
      expect(result).toMatchObject({
        on_call_names: team.map((u) => u.name).join(', '),
        on_call_emails: team.map((u) => u.email).join(', '),
        on_call_count: team.length,
      });
    }
  });

  it('finds nothing, without an error, when nobody is on call', async () => {
    const scopes = replay('list-teams', 'on-call-nobody');
    const results = await appTester(findOnCallUsers, { authData, inputData: { teamname: 'Mobile' } });
    expectAllUsed(scopes);
    expect(results).toEqual([]);
  });

  it('stops with a clear error naming an unknown team and only close matches, never every team', async () => {
    const scopes = replay('list-teams');
    const failure = await failureOf(appTester(findOnCallUsers, { authData, inputData: { teamname: 'No Such Team 0451' } }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'not_found' });
    expect(failure.text).toContain('"No Such Team 0451"');
    expect(failure.text).toContain("None of the organization's 3 teams has a close name");
    expect(failure.text).not.toContain('Platform');
    expectNoKey(failure);
  });

  it('says in plain words what could not be done when the team is unknown', async () => {
    replay('list-teams');
    const failure = await failureOf(appTester(findOnCallUsers, { authData, inputData: { teamname: 'No Such Team 0451' } }));
    expect(failure.text).not.toMatch(/Could not who is/);
    expect(failure.text).toMatch(/^(No team named "No Such Team 0451"|Could not (look up|find|list|get) (who is|the people) on call)/);
  });
});

describe('find_directory_entry', () => {
  it('finds one entry by e-mail', async () => {
    const scopes = replay('directory-get');
    const results = await appTester(findDirectoryEntry, { authData, inputData: { email: 'katherine@acme.example' } });
    expectAllUsed(scopes);
    expect(results).toEqual([recordedResponse('directory-get')]);
  });

  it('finds nothing, without an error, when there is no entry', async () => {
    const scopes = replay('directory-get-missing');
    const results = await appTester(findDirectoryEntry, { authData, inputData: { email: 'nobody.0451@example.com' } });
    expectAllUsed(scopes);
    expect(results).toEqual([]);
  });

  it('finds nothing for an entry just removed', async () => {
    const scopes = replaySteps('directory-lifecycle', 5);
    const results = await appTester(findDirectoryEntry, { authData, inputData: { email: ' new.hire@acme.example ' } });
    expectAllUsed(scopes);
    expect(results).toEqual([]);
  });
});
