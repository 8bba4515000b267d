import { describe, expect, it } from '@jest/globals';
import { connectionLabel } from '../../zapier-app/connection-label.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay } from './replay.ts';
import { appTester, authData, expectNoKey, failureOf, KEY } from './support.ts';
import { authentication } from '../../zapier-app/authentication.ts';

offlineNock();

describe('authentication', () => {
  it('tests the key with GET /o/test/apikey, then the team list at the rotations base, and returns the key check', async () => {
    const scopes = replay('check-api-key', 'list-teams');
    const answer = await appTester(authentication.test, { authData });
    expectAllUsed(scopes);
    expect(answer).toEqual(recordedResponse('check-api-key'));
  });

  it("labels the connection with whose key it is, from the test's answer", async () => {
    const scopes = replay('check-api-key', 'list-teams');
    const answer = await appTester(authentication.test, { authData });
    const label = await appTester(authentication.connectionLabel, { authData, inputData: answer as Record<string, unknown> });
    expectAllUsed(scopes);
    expect(label).toBe('Grace Hopper (Acme)');
  });

  it("refuses an invalid key as an expired connection, with the service's words and without the key", async () => {
    const scopes = replay('check-api-key-invalid');
    const failure = await failureOf(appTester(authentication.test, { authData }));
    expectAllUsed(scopes);
    expect(failure.name).toBe('ExpiredAuthError');
    expect(failure.text).toContain('API Key is not valid');
    expectNoKey(failure);
  });

  it('refuses a missing key before sending anything', async () => {
    const failure = await failureOf(appTester(authentication.test, { authData: { apiKey: '   ' } }));
    expect(failure.name).toBe('ExpiredAuthError');
    expect(failure.text).toMatch(/No API key was given/);
  });
});

describe('connection label', () => {
  const user = { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@acme.example' };
  const organization = { id: 'org_acme', name: 'Acme' };

  it('names the person and the organization', () => {
    expect(connectionLabel({ user, organization }, KEY)).toBe('Grace Hopper (Acme)');
    expect(connectionLabel({ user: { ...user, name: '  Grace Hopper ' }, organization: { name: ' Acme ' } }, KEY)).toBe('Grace Hopper (Acme)');
  });

  it('falls back to the e-mail, then to the organization, then to nothing: Zapier then shows its own app name and number (#2, #3, …)', () => {
    expect(connectionLabel({ user: { email: 'grace@acme.example' }, organization }, KEY)).toBe('grace@acme.example (Acme)');
    expect(connectionLabel({ user: { name: '', email: 'grace@acme.example' } }, KEY)).toBe('grace@acme.example');
    expect(connectionLabel({ organization }, KEY)).toBe('Acme API key');
    // "Zapier always includes the app's name in each account label, so it is redundant to add any
    // hard coded app name" (docs.zapier.com/platform/build/connection-label).
    expect(connectionLabel({}, KEY)).toBe('');
    expect(connectionLabel({ user: null, organization: null }, undefined)).toBe('');
  });

  it("shows the bidi and zero-width controls of the person's and organization's names, never applied (shared/visible-controls.ts)", () => {
    // The label is on Zapier's pages: "Grace \u202Eecnanif" would read as another connection's owner.
    expect(connectionLabel({ user: { name: 'Grace \u202Eecnanif\u202C' }, organization: { name: 'Ac\u200bme' } }, KEY)).toBe(
      'Grace \\u202eecnanif\\u202c (Ac\\u200bme)',
    );
  });

  it('never shows any piece of the key, and leaves out a name or organization that quotes it', () => {
    const quoting = { user: { name: `Key ${KEY}`, email: `${KEY.slice(0, 9)}@acme.example` }, organization: { name: KEY.slice(-8) } };
    expect(connectionLabel(quoting, KEY)).toBe('');
    expect(connectionLabel({ ...quoting, organization }, KEY)).toBe('Acme API key');
    const answers: Record<string, unknown>[] = [{}, { organization }, { user: {} }, { user, organization }, { valid: true }];
    for (const key of [KEY, `  ${KEY}\n`, 'short-key1', 'abcdefghijkl']) {
      for (const answer of answers) {
        const label = connectionLabel(answer, key);
        const trimmed = key.trim();
        // No run of 5 or more consecutive characters of the key.
        for (let start = 0; start + 5 <= trimmed.length; start += 1) expect(label).not.toContain(trimmed.slice(start, start + 5));
        expect(label).not.toContain(trimmed.slice(-4));
      }
    }
  });
});
