import { describe, expect, it } from '@jest/globals';
import { authentication } from '../../zapier-app/authentication.ts';
import { teamOperation } from '../../zapier-app/triggers/team.ts';
import { define, expectAllUsed, offlineWithNoStrayRequest } from './replay.ts';
import { appTester, authData, expectNoKey, failureOf, performOf } from './support.ts';

// Answers the spec leaves open, read by the shared rules through zapier-platform-core: each one
// as a real HTTP answer (nock), so core's own handling of status and content type is in play.
offlineWithNoStrayRequest();

const BASE = 'https://api.pagerly.io';
const answer = (method: string, path: string, status: number, body: string, headers: Record<string, string> = {}) =>
  define([{ scope: BASE, method, path, status, response: body, rawHeaders: headers }]);

describe('the connection test: any 2xx is a valid key, whatever the body', () => {
  it.each([
    ['200 text/plain "API Key is valid"', 200, 'API Key is valid', { 'content-type': 'text/plain' }],
    ['204 without a body', 204, '', {}],
    ['200 HTML', 200, '<html><body>OK</body></html>', { 'content-type': 'text/html' }],
  ])('%s passes', async (_name, status, body, headers) => {
    const scopes = answer('GET', '/o/test/apikey', status, body, headers);
    // The connection check then lists the teams at the rotations base (shared/operations/connection-check.ts).
    const teams = answer('GET', '/pagerly/o/zapier/allteams', 200, '[]', { 'content-type': 'application/json' });
    await expect(appTester(authentication.test, { authData })).resolves.toEqual({});
    expectAllUsed([...scopes, ...teams]);
  });

  it.each([
    ['the documented 400', 400, '[{"Error":"API Key is not valid"}]'],
    ['a 401', 401, '[{"Error":"Unauthorized"}]'],
    ['a 403', 403, '[{"Error":"Forbidden"}]'],
  ])('%s is a refused key (the connection needs attention)', async (_name, status, body) => {
    const scopes = answer('GET', '/o/test/apikey', status, body, { 'content-type': 'application/json' });
    const failure = await failureOf(appTester(authentication.test, { authData }));
    expectAllUsed(scopes);
    expect(failure.name).toBe('ExpiredAuthError');
    expectNoKey(failure);
  });

  it('a 404 at the rotations base fails the connection, naming the setting', async () => {
    const scopes = [
      ...answer('GET', '/o/test/apikey', 200, '{"valid":true}', { 'content-type': 'application/json' }),
      ...answer('GET', '/pagerly/o/zapier/allteams', 404, '', {}),
    ];
    const failure = await failureOf(appTester(authentication.test, { authData }));
    expectAllUsed(scopes);
    expect(failure.text).toContain(`${BASE}/pagerly/o/zapier/allteams (HTTP 404)`);
    expect(failure.text).toContain('Check PAGERLY_BASE_URL');
    expectNoKey(failure);
  });

  it('a 503 is the service in trouble, not a bad key', async () => {
    const scopes = answer('GET', '/o/test/apikey', 503, '<html>Maintenance</html>', { 'content-type': 'text/html' });
    const failure = await failureOf(appTester(authentication.test, { authData }));
    expectAllUsed(scopes);
    expect(failure.name).toBe('ThrottledError');
  });
});

/**
 * The status is the service's word (assumption `created-id`): a create answered 2xx is a step
 * that succeeded, so Zapier's Autoreplay, which retries errored steps
 * (docs.zapier.com/platform/manage/api-outage), never opens the incident twice, and the steps
 * after it run. Where no id can be read, the output says so beside the empty id.
 */
describe('a create answered with success but no readable id', () => {
  it.each([
    ['200 {}', 200, '{}', { 'content-type': 'application/json' }],
    ['201 with an empty body', 201, '', { 'content-type': 'application/json' }],
    ['200 HTML', 200, '<html><body>Created</body></html>', { 'content-type': 'text/html' }],
  ])('%s is a step that succeeded: an empty Incident ID and a note', async (_name, status, body, headers) => {
    const scopes = answer('POST', '/o/incident', status, body, headers);
    const output = (await appTester(performOf('creates', 'create_incident'), { authData, inputData: { title: 'Disk full' } })) as Record<string, unknown>;
    expectAllUsed(scopes);
    expect(output.id).toBe('');
    expect(output.note).toContain('gave no id that could be read');
  });

  it('the id is read from the Location header of an empty 201', async () => {
    const scopes = answer('POST', '/o/incident', 201, '', { location: '/o/incident/INC-7' });
    const output = (await appTester(performOf('creates', 'create_incident'), { authData, inputData: { title: 'Disk full' } })) as Record<string, unknown>;
    expectAllUsed(scopes);
    expect(output).toEqual({ id: 'INC-7', note: '' });
  });
});

describe('Retry-After', () => {
  it('a wait past a day is not held as "Waiting": the step stops and says when, as a date', async () => {
    const scopes = answer('GET', '/pagerly/o/zapier/allteams', 429, '[{"Error":"Quota used up"}]', {
      'content-type': 'application/json',
      'retry-after': 'Thu, 01 Jan 2099 00:00:00 GMT',
    });
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expectAllUsed(scopes);
    expect(failure.name).not.toBe('ThrottledError');
    expect(failure.text).toContain('try again after 2099-01-01 00:00 UTC');
    expect(failure.text).not.toMatch(/\d{7,} s/);
  });
});
