import { createClient } from '../../shared/client.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { connection } from '../../shared/operations/connection.ts';
import { type BaseSettingNames, basesNamed, proveConnection } from '../../shared/operations/connection-check.ts';
import { BASE_URL_FIELD, ROTATIONS_BASE_URL_FIELD } from '../names.ts';
import type { CredentialTestResult, N8nCredentialTestContext, N8nTestedCredential } from './n8n-api.ts';
import { n8nCredentialTestTransport } from './transport.ts';

/** The credential's base fields as its form labels them (generator/descriptions.ts), for messages. */
export const N8N_BASE_SETTINGS: BaseSettingNames = { api: 'Base URL', rotations: 'Rotations Base URL' };

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The credential test (the nodes' `methods.credentialTest`, named by `testedBy`): the shared
 * connection check, a call at each base, so a Base URL that points at the rotations address
 * fails here, naming the field, instead of passing and failing every team lookup later. A
 * declarative `test` would be one request, at one base.
 */
export async function testPagerlyCredential(context: N8nCredentialTestContext, credential: N8nTestedCredential): Promise<CredentialTestResult> {
  const data = credential.data ?? {};
  const settings = { baseUrl: text(data[BASE_URL_FIELD]), rotationsBaseUrl: text(data[ROTATIONS_BASE_URL_FIELD]) };
  try {
    // A field that is not a URL is named as the form labels it, before any request.
    basesNamed(settings, N8N_BASE_SETTINGS);
    const client = createClient({
      apiKey: (data[connection.apiKeyField.key] as string | undefined) ?? '',
      ...settings,
      userAgent: 'pagerly-n8n',
      transport: n8nCredentialTestTransport(context),
    });
    await proveConnection(client, settings, N8N_BASE_SETTINGS);
    return { status: 'OK', message: 'Connection successful' };
  } catch (error) {
    // The API module's messages are redacted and name what to fix; anything else is a bug to see.
    if (isPagerlyError(error)) return { status: 'Error', message: error.message };
    throw error;
  }
}
