import { describe, expect, it } from '@jest/globals';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay, replaySteps } from './replay.ts';
import { appTester, authData, expectNoKey, failureOf, performOf } from './support.ts';

offlineNock();

const findOnCallUsers = performOf('searches', 'find_on_call_users');
const findDirectoryEntry = performOf('searches', 'find_directory_entry');

describe('find_on_call_users', () => {
  it("returns each person on call, each carrying everyone's names, e-mails and count", async () => {
    const scopes = replay('on-call-team');
    const results = await appTester(findOnCallUsers, { authData, inputData: { teamname: 'Platform' } });
    expectAllUsed(scopes);
    expect(results).toEqual([
      {
        id: 'usr_alan',
        name: 'Alan Turing',
        email: 'alan@acme.example',
        imageurl: 'https://images.acme.example/alan.png',
        on_call_names: 'Alan Turing',
        on_call_emails: 'alan@acme.example',
        on_call_count: 1,
      },
    ]);
  });

  it("joins everyone on call into every result, in the service's order", async () => {
    // The all-teams answer (three people) read through the same search, with no team given.
    const scopes = replay('on-call-all-teams');
    const results = (await appTester(findOnCallUsers, { authData, inputData: { teamname: '' } })) as Record<string, unknown>[];
    expectAllUsed(scopes);
    const users = recordedResponse('on-call-all-teams') as Record<string, unknown>[];
    expect(results.map((r) => r.id)).toEqual(users.map((u) => u.id));
    for (const [index, result] of results.entries()) {
      expect(result).toEqual({
        ...users[index],
        on_call_names: 'Alan Turing, Katherine Johnson, Grace Hopper',
        on_call_emails: 'alan@acme.example, katherine@acme.example, grace@acme.example',
        on_call_count: 3,
      });
    }
  });

  it('finds nothing, without an error, when nobody is on call', async () => {
    const scopes = replay('on-call-nobody');
    const results = await appTester(findOnCallUsers, { authData, inputData: { teamname: 'Mobile' } });
    expectAllUsed(scopes);
    expect(results).toEqual([]);
  });

  it('stops with a clear error naming an unknown team', async () => {
    const scopes = replay('on-call-unknown-team');
    const failure = await failureOf(appTester(findOnCallUsers, { authData, inputData: { teamname: 'No Such Team 0451' } }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'not_found', status: 404 });
    expect(failure.text).toContain('"No Such Team 0451"');
    expectNoKey(failure);
  });

  it('says in plain words what could not be done when the team is unknown', async () => {
    replay('on-call-unknown-team');
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
