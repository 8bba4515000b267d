import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentialDescription, INVALID_KEY_MESSAGE, ROTATIONS_NOT_FOUND_MESSAGE } from '../../n8n-app/generator/descriptions.ts';
import { BASE_URL_FIELD, ROTATIONS_BASE_URL_FIELD } from '../../n8n-app/names.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { connection } from '../../shared/operations/connection.ts';

// n8n's declarative credential test (packages/cli/src/services/credentials-tester.service.ts):
// the credential's `test.request` is sent with the credential's `authenticate` block, a status
// a `responseCode` rule names gives that rule's message, any other non-2xx fails, a 2xx passes.
// Here the request's expressions are evaluated as plain JavaScript, which is what n8n's
// expression syntax is; `npm run n8n:e2e` runs the same test in n8n itself.

let sandbox: Sandbox;
let url: string;

beforeAll(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  url = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

const evaluate = (expression: string, credentials: Record<string, string>): string =>
  expression.startsWith('={{') ? (new Function('$credentials', `return (${expression.slice(3, -2)});`)(credentials) as string) : expression;

async function credentialTest(data: Record<string, string>): Promise<{ status: 'OK' | 'Error'; message: string; url: string }> {
  const { test, authenticate } = credentialDescription();
  const target = `${evaluate(test.request.baseURL, data)}${test.request.url}`;
  const headers = Object.fromEntries(Object.entries(authenticate.properties.headers).map(([name, value]) => [name, evaluate(value, data)]));
  const response = await fetch(target, { method: test.request.method, headers, redirect: test.request.disableFollowRedirect ? 'manual' : 'follow' });
  const rule = test.rules.find((r) => r.properties.value === response.status);
  if (rule) return { status: 'Error', message: rule.properties.message, url: target };
  if (response.status < 200 || response.status > 299) return { status: 'Error', message: `Received HTTP status code: ${response.status}`, url: target };
  return { status: 'OK', message: 'Connection successful!', url: target };
}

const credential = (apiKey: string, baseUrl: string, rotationsBaseUrl = '') => ({
  [connection.apiKeyField.key]: apiKey,
  [BASE_URL_FIELD]: baseUrl,
  [ROTATIONS_BASE_URL_FIELD]: rotationsBaseUrl,
});

describe("the credential test: the documented team list at the rotations base, n8n's one declarative request", () => {
  it('passes with a good key, asking the rotations base (the Base URL followed by /pagerly), with or without a trailing slash', async () => {
    for (const base of [url, `${url}/`]) {
      const result = await credentialTest(credential(demoKeys.acmeAdmin, base));
      expect(result).toMatchObject({ status: 'OK', url: `${url}/pagerly/o/zapier/allteams` });
    }
  });

  it('fails with the Base URL set to the rotations address, naming the field (the key check alone answers there)', async () => {
    const result = await credentialTest(credential(demoKeys.acmeAdmin, `${url}/pagerly`));
    expect(result).toEqual({ status: 'Error', message: ROTATIONS_NOT_FOUND_MESSAGE, url: `${url}/pagerly/pagerly/o/zapier/allteams` });
    expect(result.message).toMatch(/check Base URL, the address of the Pagerly API/);
  });

  it('asks the Rotations Base URL when it is set, and names it when nothing answers there', async () => {
    expect(await credentialTest(credential(demoKeys.acmeAdmin, 'https://unused.example', `${url}/pagerly`))).toMatchObject({ status: 'OK' });
    const result = await credentialTest(credential(demoKeys.acmeAdmin, url, `${url}/nowhere`));
    expect(result).toMatchObject({ status: 'Error', message: ROTATIONS_NOT_FOUND_MESSAGE });
    expect(result.message).toMatch(/If Rotations Base URL is set, check it/);
  });

  it('fails on a refused key with the message that says to copy it again, not the key', async () => {
    const badKey = 'sbx_bad_key_unit_0000000000000000';
    const result = await credentialTest(credential(badKey, url));
    expect(result).toMatchObject({ status: 'Error', message: INVALID_KEY_MESSAGE });
    expect(JSON.stringify(result)).not.toContain(badKey);
  });

  it(`sends the key in ${API_KEY_HEADER} from the credential, and follows no redirect`, () => {
    const { test, authenticate } = credentialDescription();
    expect(Object.keys(authenticate.properties.headers)).toEqual([API_KEY_HEADER]);
    expect(test.request.disableFollowRedirect).toBe(true);
    expect(test.rules.map((rule) => rule.properties.value)).toEqual([400, 401, 404, 301, 302, 303, 307, 308]);
  });
});
