import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { teamOperation } from '../../zapier-app/triggers/team.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, replay, replaySteps, unmatchedRequests } from './replay.ts';
import { appTester, authData, expectNoKey, failureOf, KEY, performOf, type ZapierFailure } from './support.ts';

offlineNock();

describe('errors the service answers', () => {
  it("an invalid key marks the connection as expired, with the service's text", async () => {
    const scopes = replay('list-teams-invalid-key');
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expectAllUsed(scopes);
    expect(failure.name).toBe('ExpiredAuthError');
    expect(failure.text).toContain('"API Key is not valid"');
    expectNoKey(failure);
  });

  describe("an action only an org admin may do, with a non-admin's key", () => {
    const cases = [
      ['create_directory_entry', { email: 'new.hire@acme.example', name: 'New Hire' }, 'create or replace a directory entry'],
      ['change_directory_role', { email: 'katherine@acme.example', role: 'admin' }, 'change the role of a directory entry'],
      ['remove_directory_entry', { email: 'katherine@acme.example' }, 'remove a directory entry'],
    ] as const;

    it('stops each of the three with "permission", saying an org admin\'s key is needed', async () => {
      const scopes = replay('directory-admin-refusals');
      const failures: ZapierFailure[] = [];
      for (const [key, inputData] of cases) failures.push(await failureOf(appTester(performOf('creates', key), { authData, inputData })));
      expectAllUsed(scopes);
      failures.forEach((failure, index) => {
        expect(failure).toMatchObject({ name: 'AppError', code: 'permission', status: 403 });
        expect(failure.text).toContain(`Only an org admin can ${cases[index]![2]}`);
        expect(failure.text).toContain("Use an org admin's API key");
        expectNoKey(failure);
      });
    });
  });

  it("an update of an unknown incident says it was not found, with the service's reason", async () => {
    const scopes = replay('incident-update-unknown');
    const failure = await failureOf(appTester(performOf('creates', 'update_incident'), { authData, inputData: { id: 'inc_does_not_exist', title: 'x' } }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'not_found', status: 404 });
    // An update says only what it did: the endpoint also creates, the step does not.
    expect(failure.text).toMatch(/^Could not update an incident by its id: not found\./);
    expect(failure.text).toContain('No incident with id "inc_does_not_exist"');
  });

  // Zapier's guidance for delete actions (docs.zapier.com/platform/build/action, "Delete actions"):
  // the goal of a removal is an entry that is not there, so one already gone succeeds and says so.
  it('removing an entry that is already gone succeeds with Removed Now false, not a failed Zap', async () => {
    const scopes = replaySteps('directory-lifecycle', 6);
    const removal = await appTester(performOf('creates', 'remove_directory_entry'), { authData, inputData: { email: 'new.hire@acme.example' } });
    expectAllUsed(scopes);
    expect(removal).toEqual({ email: 'new.hire@acme.example', removed: false });
  });

  it("a 429 asks Zapier to retry after the service's Retry-After", async () => {
    const scopes = replay('rate-limited');
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'ThrottledError', delay: 30 });
    expect(failure.text).toContain('try again in 30 s');
    expectNoKey(failure);
  });

  // The incident may exist: a replay could page twice. HaltedError stops the run on purpose and
  // is not replayed by itself (help.zapier.com/hc/en-us/articles/20505304170637).
  it('a 500 to a create halts the step: it may have been done, the message says to check before replaying', async () => {
    const scopes = replay('server-error');
    const failure = await failureOf(appTester(performOf('creates', 'create_incident'), { authData, inputData: { title: 'Disk full on db-1', severity: '' } }));
    expectAllUsed(scopes);
    expect(failure.name).toBe('HaltedError');
    expect(failure.text).toContain('check in Pagerly before trying again');
    expect(failure.text).toContain('HTTP 500');
    expect(failure.text).toContain('Internal error');
    expectNoKey(failure);
  });

  it('an HTML page instead of JSON is an invalid response, with the status and an excerpt', async () => {
    const scopes = replay('list-teams', 'html-instead-of-json');
    const failure = await failureOf(appTester(performOf('searches', 'find_on_call_users'), { authData, inputData: { teamname: 'Platform' } }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'invalid_response' });
    expect(failure.text).toContain('HTTP 200');
    expect(failure.text).toContain('<h1>Maintenance</h1>');
    expectNoKey(failure);
  });

  it('truncated JSON is an invalid response, with the status and an excerpt', async () => {
    const scopes = replay('truncated-json');
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'invalid_response' });
    expect(failure.text).toContain('HTTP 200');
    expect(failure.text).toContain('[{"id":"team_platform","name":"Platf');
    expectNoKey(failure);
  });
});

describe('input refused before anything is sent', () => {
  let unmatched: ReturnType<typeof unmatchedRequests>;
  beforeEach(() => {
    // No interceptor and no network: a request would be refused and counted here.
    nock.cleanAll();
    unmatched = unmatchedRequests();
  });
  afterEach(() => unmatched.stop());

  const cases = [
    ['creates', 'create_incident', 'title', { title: '', severity: 'P2' }, 'title is required'],
    ['creates', 'create_incident', 'status', { title: 'x', status: 'closed' }, 'status must be one of: triggered, acknowledged, resolved'],
    ['creates', 'create_directory_entry', 'email', { email: 'not-an-email', name: 'New Hire' }, 'email must be an e-mail address'],
    ['creates', 'update_directory_phone', 'phone', { email: 'katherine@acme.example', phone: '415-555' }, 'phone must be in international format'],
    ['creates', 'change_directory_role', 'role', { email: 'katherine@acme.example', role: 'owner' }, 'role must be one of: admin, user'],
    ['searches', 'find_directory_entry', 'email', { email: 'katherine at acme' }, 'email must be an e-mail address'],
  ] as const;

  it.each(cases)('%s.%s with a bad %s', async (kind, key, _field, inputData, problem) => {
    const failure = await failureOf(appTester(performOf(kind, key), { authData, inputData }));
    expect(failure).toMatchObject({ name: 'AppError', code: 'invalid_input' });
    expect(failure.text).toContain(problem);
    expect(unmatched.count).toBe(0);
    expectNoKey(failure);
  });
});

describe('the API key never appears in an error', () => {
  // Hand-made answers (the recordings never repeat a key): a service text that quotes the key it refused.
  const quotingTheKey = (status: number) =>
    nock('https://api.pagerly.io')
      .get('/pagerly/o/zapier/allteams')
      .reply(status, [{ Error: `API key ${KEY} is not valid for this org` }]);

  it.each([400, 403, 500])('not even when the service quotes it (HTTP %d)', async (status) => {
    const scope = quotingTheKey(status);
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expect(scope.isDone()).toBe(true);
    expect(failure.text).toContain('[redacted]');
    expectNoKey(failure);
  });

  // core appends "What happened" to an error without `doNotContextify`: every request's first
  // 100 characters of answer as they came (log-response.js), so a quoted key would be back.
  it.each([
    ['ExpiredAuthError', 400],
    ['HaltedError', 500],
  ])('a %s carries its own text only, no trail of what happened appended by core', async (name, status) => {
    const scope =
      status === 500
        ? nock('https://api.pagerly.io')
            .post('/o/incident')
            .reply(500, [{ Error: `API key ${KEY} is not valid for this org` }])
        : quotingTheKey(status);
    const perform = status === 500 ? performOf('creates', 'create_incident') : teamOperation.perform;
    const failure = await failureOf(appTester(perform, { authData, inputData: { title: 'Disk full on db-1' } }));
    expect(scope.isDone()).toBe(true);
    expect(failure.name).toBe(name);
    expect(failure.raw).toBe(failure.text);
    expect(failure.raw).not.toMatch(/What happened|Received content/);
    expectNoKey(failure);
  });

  it('not even when the key was pasted with surrounding whitespace', async () => {
    const scope = quotingTheKey(400);
    const failure = await failureOf(appTester(teamOperation.perform, { authData: { apiKey: `  ${KEY}\n` } }));
    expect(scope.isDone()).toBe(true);
    expect(failure.name).toBe('ExpiredAuthError');
    expectNoKey(failure);
  });
});

describe("the service's text in an error", () => {
  // The Zap editor and the Zap history are web pages: "Deploy \u202Egnp.exe" would read
  // "Deploy exe.png" there. Shown by the rule of every surface (shared/visible-controls.ts).
  it.each([400, 403, 422, 500])('shows its bidi and zero-width controls as escapes, never applied (HTTP %d)', async (status) => {
    const scope = nock('https://api.pagerly.io')
      .get('/pagerly/o/zapier/allteams')
      .reply(status, [{ Error: 'Team Deploy \u202Egnp.exe\u202C of Ad\u200bmin' }]);
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expect(scope.isDone()).toBe(true);
    expect(failure.text).toContain('Team Deploy \\u202egnp.exe\\u202c of Ad\\u200bmin');
    expect(failure.raw).not.toMatch(/[\u202e\u202c\u200b]/);
  });
});
