import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentialDescription } from '../../n8n-app/generator/descriptions.ts';
import { actionNodeSource, credentialSource, triggerNodeSource } from '../../n8n-app/generator/sources.ts';
import { CREDENTIAL, CREDENTIAL_TEST_METHOD } from '../../n8n-app/names.ts';
import { testPagerlyCredential } from '../../n8n-app/runtime/index.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { credentialTestContext, credentialWith } from './support.ts';

// How n8n finds a credential's test (packages/cli/src/services/credentials-tester.service.ts):
// the credential's own `test` first, else a node whose `credentials` entry names it in
// `testedBy`, whose `methods.credentialTest[testedBy]` n8n calls with a CredentialTestContext.
// n8n's lint accepts a credential without `test` when every node using it has `testedBy`
// (@n8n/eslint-plugin-community-nodes, credential-test-required:
// https://github.com/n8n-io/n8n/blob/master/packages/%40n8n/eslint-plugin-community-nodes/docs/rules/credential-test-required.md).

let sandbox: Sandbox;
let url: string;

beforeAll(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  url = await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

describe('the credential test proves both bases', () => {
  it('is a node method named by testedBy on both nodes, not a one-request test on the credential', () => {
    expect(Object.keys(credentialDescription())).not.toContain('test');
    expect(credentialSource()).not.toMatch(/\btest\s*[:=]/);
    for (const source of [actionNodeSource(), triggerNodeSource()]) {
      expect(source).toContain(`testedBy: '${CREDENTIAL_TEST_METHOD}'`);
      expect(source).toContain(`async ${CREDENTIAL_TEST_METHOD}(this: ICredentialTestFunctions, credential: ICredentialsDecrypted)`);
      expect(source).toContain(`name: '${CREDENTIAL.name}'`);
    }
  });

  it('passes with a good key, after the key check at the Base URL and the team list at the rotations base', async () => {
    const { context, sent } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(demoKeys.acmeAdmin, url));
    expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
    expect(sent.map((request) => new URL(request.url).pathname)).toEqual(['/o/test/apikey', '/pagerly/o/zapier/allteams']);
    for (const request of sent) expect(request.headers[API_KEY_HEADER]).toBe(demoKeys.acmeAdmin);
  });

  it('fails with the Base URL set to the rotations address, naming Base URL (the key check alone passes there)', async () => {
    const { context, sent } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(demoKeys.acmeAdmin, `${url}/pagerly`));
    expect(result.status).toBe('Error');
    expect(result.message).toContain(`${url}/pagerly/pagerly/o/zapier/allteams (HTTP 404)`);
    expect(result.message).toMatch(/Check Base URL: it is the address of the Pagerly API \(e\.g\. https:\/\/api\.pagerly\.io\), not the address of teams/);
    expect(sent).toHaveLength(2);
  });

  it('names Rotations Base URL when that field is set and nothing answers there', async () => {
    const { context } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(demoKeys.acmeAdmin, url, `${url}/nowhere`));
    expect(result.status).toBe('Error');
    expect(result.message).toContain('Check Rotations Base URL:');
  });

  it('names Base URL when nothing answers the key check there', async () => {
    const { context, sent } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(demoKeys.acmeAdmin, `${url}/nowhere`, `${url}/pagerly`));
    expect(result.status).toBe('Error');
    expect(result.message).toMatch(/^Nothing answers the key check at .*\/nowhere\/o\/test\/apikey \(HTTP 404\)\. Check Base URL:/);
    expect(sent).toHaveLength(1);
  });

  it('names the field that is not a URL, as the form labels it, and sends nothing', async () => {
    const { context, sent } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(demoKeys.acmeAdmin, url, 'api.pagerly.io/pagerly'));
    expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Rotations Base URL must be an http or https URL/) });
    expect(sent).toEqual([]);
  });

  it('fails on a refused key, without repeating it', async () => {
    const badKey = 'sbx_bad_key_unit_0000000000000000';
    const { context } = credentialTestContext();
    const result = await testPagerlyCredential(context, credentialWith(badKey, url));
    expect(result.status).toBe('Error');
    expect(result.message).toMatch(/API key was refused/);
    expect(JSON.stringify(result)).not.toContain(badKey);
  });
});
