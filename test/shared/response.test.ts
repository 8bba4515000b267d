import { describe, expect, it } from '@jest/globals';
import {
  AuthenticationError,
  InvalidInputError,
  InvalidResponseError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestError,
  ServerError,
} from '../../shared/errors.ts';
import { interpretResponse } from '../../shared/http/response.ts';
import { retryAfterSeconds, retryWhen } from '../../shared/http/retry-after.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const caught = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
};

describe('interpretResponse: success', () => {
  it('keeps unknown fields and a null imageurl; an empty list is a normal answer', () => {
    const users = interpretResponse(
      'listOnCallUsers',
      json(200, [{ id: 'u1', name: 'Sam', email: 'sam@acme.test', imageurl: null, timezone: 'Europe/Paris' }]),
    );
    expect(users).toEqual([{ id: 'u1', name: 'Sam', email: 'sam@acme.test', imageurl: null, timezone: 'Europe/Paris' }]);
    expect(interpretResponse('listTeams', json(200, []))).toEqual([]);
  });

  it('reads a missing imageurl as null and numeric ids as strings', () => {
    expect(interpretResponse('listOnCallUsers', json(200, [{ id: 7, name: 'Kim', email: 'kim@acme.test' }]))).toEqual([
      { id: '7', name: 'Kim', email: 'kim@acme.test', imageurl: null },
    ]);
  });

  it('refuses a documented list that is not a list, with an excerpt', () => {
    const error = caught(() => interpretResponse('listTeams', json(200, { teams: [] })));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/not of the documented shape/);
    expect(error.message).toContain('{"teams":[]}');
  });

  it('passes on an undocumented shape that does not fit the assumed one, whole', () => {
    expect(interpretResponse('createOrUpdateIncident', json(201, { id: { nested: true }, ok: 1 }))).toEqual({ id: { nested: true }, ok: 1 });
    expect(interpretResponse('checkApiKey', json(200, '"API Key is valid"'))).toEqual({ value: 'API Key is valid' });
    expect(interpretResponse('removeDirectoryEntry', { status: 204, headers: {}, body: '' })).toEqual({});
  });

  it('a key check is answered by its status: any 2xx is a valid key, whatever the body or content type', () => {
    const plain = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'API Key is valid' };
    expect(interpretResponse('checkApiKey', plain)).toEqual({});
    expect(interpretResponse('checkApiKey', { status: 204, headers: {}, body: '' })).toEqual({});
    expect(interpretResponse('checkApiKey', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>OK</html>' })).toEqual({});
    expect(interpretResponse('checkApiKey', json(200, { user: { name: 'Grace' }, extra: 1 }))).toEqual({ user: { name: 'Grace' }, extra: 1 });
    // Not a valid key: the documented 400, a 401, a 403; the service in trouble is no verdict on the key.
    const invalid = { status: 400, headers: { 'content-type': 'application/json' }, body: '[{"Error":"API Key is not valid"}]' };
    expect(caught(() => interpretResponse('checkApiKey', invalid))).toBeInstanceOf(AuthenticationError);
    expect(caught(() => interpretResponse('checkApiKey', json(401, [{ Error: 'Unauthorized' }])))).toBeInstanceOf(AuthenticationError);
    expect(caught(() => interpretResponse('checkApiKey', json(429, [])))).toMatchObject({ code: 'rate_limited' });
    expect(caught(() => interpretResponse('checkApiKey', json(503, [])))).toMatchObject({ code: 'server' });
  });

  it('turns a non-JSON success body into a clear error with status and excerpt', () => {
    const error = caught(() =>
      interpretResponse('listTeams', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome to nginx!</body></html>' }),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('HTTP 200');
    expect(error.message).toContain('text/html');
    expect(error.message).toContain('Welcome to nginx!');
    expect(caught(() => interpretResponse('listTeams', json(200, '[{"id":"t1","na')))).toBeInstanceOf(InvalidResponseError);
  });
});

describe('interpretResponse: errors', () => {
  it('maps the documented invalid-key 400 to an authentication error carrying the service text', () => {
    const error = caught(() => interpretResponse('listTeams', json(400, [{ Error: 'API Key is not valid' }])));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).serviceMessage).toBe('API Key is not valid');
    expect(error.message).toMatch(/The API key was refused\. The service said: "API Key is not valid"\./);
    expect(caught(() => interpretResponse('listTeams', json(401, '')))).toBeInstanceOf(AuthenticationError);
  });

  it('maps any other 400 to invalid input from the service', () => {
    const error = caught(() => interpretResponse('updateDirectoryPhone', json(400, [{ Error: 'phone must be in international format' }])));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).source).toBe('service');
    expect(error.message).toBe('The service refused the input to update the phone number of a directory entry: phone must be in international format.');
  });

  it("says an admin-only refusal needs an org admin's key", () => {
    const error = caught(() => interpretResponse('removeDirectoryEntry', json(403, [{ Error: 'Only an org admin can do this' }])));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.message).toMatch(
      /^Only an org admin can remove a directory entry, and this API key was generated by someone who is not one .*Use an org admin's API key\. The service said: "Only an org admin can do this"\.$/,
    );
    expect(caught(() => interpretResponse('updateDirectoryPhone', json(403, [{ Error: 'no' }]))).message).not.toMatch(/org admin/);
  });

  it("lets the service's own reason lead when an admin-only refusal is not about admin rights", () => {
    const owner = caught(() => interpretResponse('removeDirectoryEntry', json(403, [{ Error: "The organization's owner cannot be removed through the API" }])));
    expect(owner).toBeInstanceOf(PermissionError);
    expect(owner.message).toBe("Not allowed to remove a directory entry: The organization's owner cannot be removed through the API.");
    expect(caught(() => interpretResponse('changeDirectoryRole', json(403, ''))).message).toMatch(/^Only an org admin can change the role/);
  });

  it('maps 404 with the service text', () => {
    const error = caught(() => interpretResponse('listOnCallUsers', json(404, [{ Error: 'No team named "Nope"' }])));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('No team named "Nope"');
  });

  it('maps 429 with Retry-After in seconds or as a date', () => {
    const error = caught(() => interpretResponse('listTeams', json(429, [{ Error: 'Rate limit exceeded' }], { 'retry-after': '17' })));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(17);
    expect(error.message).toMatch(/try again in 17 s/);
    const now = new Date('2026-11-02T08:00:00Z');
    expect(retryAfterSeconds('Mon, 02 Nov 2026 08:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect((caught(() => interpretResponse('listTeams', json(429, ''))) as RateLimitError).retryAfterSeconds).toBeUndefined();
  });

  it('says when to retry as a person reads it, a far wait as a date', () => {
    const now = new Date('2026-11-02T08:00:00Z');
    expect([30, 90, 300, 5400, 86_400, 172_800].map((seconds) => retryWhen(seconds, now))).toEqual([
      'in 30 s',
      'in 90 s',
      'in 5 min',
      'in 2 h',
      'in 24 h',
      'in 48 h',
    ]);
    expect(retryWhen(2_275_376_491, now)).toBe(
      'after 2099-01-01 00:00 UTC'.replace('2099-01-01 00:00', new Date(now.getTime() + 2_275_376_491_000).toISOString().slice(0, 16).replace('T', ' ')),
    );
    const far = caught(() => interpretResponse('listTeams', json(429, [], { 'retry-after': 'Thu, 01 Jan 2099 00:00:00 GMT' })));
    expect(far.message).toContain('try again after 2099-01-01 00:00 UTC');
  });

  it('maps 5xx to a retryable server error, JSON or not', () => {
    const error = caught(() => interpretResponse('listTeams', { status: 502, headers: {}, body: '<html>Bad Gateway</html>' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ retryable: true, mayHaveApplied: false });
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('Bad Gateway');
  });

  // A 503 says the service could not handle the request (RFC 9110 §15.6.4); a 500, or a 502 or
  // 504 from a gateway, says nothing about whether the create behind it was done.
  it.each([
    [500, true],
    [502, true],
    [504, true],
    [503, false],
  ])('a create answered %i: may have been applied = %s; retryable only when it cannot have been', (status, applied) => {
    const error = caught(() => interpretResponse('createOrUpdateIncident', json(status, [{ Error: 'Upstream failed' }])));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ mayHaveApplied: applied, retryable: !applied, status });
    if (applied) expect(error.message).toMatch(/may have been done anyway: check in Pagerly before trying again/);
    else expect(error.message).toContain('usually temporary; try again');
  });

  it('a 500 to a request safe to repeat (a delete) is retryable: it cannot do anything twice', () => {
    const error = caught(() => interpretResponse('removeDirectoryEntry', json(500, [{ Error: 'Internal error' }])));
    expect(error).toMatchObject({ mayHaveApplied: false, retryable: true });
  });

  it('maps a non-JSON 4xx to an invalid response and other 4xx to a request error', () => {
    expect(caught(() => interpretResponse('listTeams', { status: 404, headers: {}, body: '<h1>Not Found</h1>' }))).toBeInstanceOf(InvalidResponseError);
    const conflict = caught(() => interpretResponse('listTeams', json(409, [{ Error: 'Conflict' }])));
    expect(conflict).toBeInstanceOf(RequestError);
    expect(conflict.message).toContain('HTTP 409');
  });

  it('never repeats the key, even when the service echoes it', () => {
    const key = 'live-key-9b2e77';
    const echoed = json(400, [{ Error: `API Key is not valid: ${key}` }]);
    const error = caught(() => interpretResponse('listTeams', echoed, [key]));
    expect(error.message).not.toContain(key);
    expect(JSON.stringify(error)).not.toContain(key);
    const html = caught(() => interpretResponse('listTeams', { status: 200, headers: {}, body: `<p>key=${key}</p>` }, [key]));
    expect(html.message).not.toContain(key);
    expect(html.message).toContain('[redacted]');
  });
});
