import { afterEach, describe, expect, it } from '@jest/globals';
import { faultServer, json, type Behaviour } from '../support/fault-server.ts';
import { makeErrorOf, runnerFor } from './support.ts';

/**
 * The connection's key check (GET /o/test/apikey), against answers the spec does not pin down
 * (5.7 gives no shape): any 2xx is a checked key; the documented 400 is an invalid key; the rest
 * is typed by status, as Make types any 4xx or 5xx as an error
 * (https://developers.make.com/custom-apps-documentation/app-structure/base/error-handling).
 */
const KEY = 'sbx_acme_user_0123456789abcdef';
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function check(behaviour: Behaviour) {
  const server = await faultServer([behaviour]);
  servers.push(server);
  return runnerFor(server.url).testConnection({ apiKey: KEY });
}

describe('the Make connection check', () => {
  it.each([
    ['an empty 204', { kind: 'answer', status: 204, body: '' }],
    ['a 200 with plain text', { kind: 'answer', status: 200, body: 'OK', headers: { 'content-type': 'text/plain' } }],
    ['a 200 with an HTML page', { kind: 'answer', status: 200, body: '<p>ok</p>', headers: { 'content-type': 'text/html' } }],
    ['a 200 with JSON that names nobody', json(200, { ok: true })],
  ] as [string, Behaviour][])('takes %s for a valid key, labelled with the fixed word', async (_, behaviour) => {
    await expect(check(behaviour)).resolves.toEqual({ data: undefined, label: { type: 'text', value: 'Pagerly API key' } });
  });

  it('takes the documented 400 for an invalid key (InvalidAccessTokenError), with the status first', async () => {
    const refused = await makeErrorOf(check(json(400, [{ Error: 'API Key is not valid' }])));
    expect(refused.type).toBe('InvalidAccessTokenError');
    expect(refused.message).toMatch(/^\[400\] The API key was refused\. .*Pagerly said: API Key is not valid$/);
  });

  it.each([
    [401, 'InvalidAccessTokenError'],
    [404, 'DataError'],
    [429, 'RateLimitError'],
    [503, 'ConnectionError'],
  ])('types a %i by its status (%s)', async (status, type) => {
    const error = await makeErrorOf(check(json(status, [{ Error: 'no' }])));
    expect([error.type, error.message.startsWith(`[${status}] `)]).toEqual([type, true]);
  });

  it('does not take a redirect for a checked key', async () => {
    const error = await makeErrorOf(check({ kind: 'answer', status: 302, body: '', headers: { location: 'https://elsewhere.example/' } }));
    expect([error.type, error.message]).toEqual(['DataError', '[302] Pagerly answered with a redirect, which this app does not follow.']);
  });
});
