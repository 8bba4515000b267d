import { type ClientSummaries, createClient, type PagerlyClient } from '../../shared/client.ts';
import { connection } from '../../shared/operations/connection.ts';
import { BASE_URL_FIELD, CREDENTIAL, ROTATIONS_BASE_URL_FIELD } from '../names.ts';
import type { N8nBaseContext } from './n8n-api.ts';
import { n8nTransport } from './transport.ts';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The typed client for the node's credential. In n8n the bases are credential fields (a
 * self-hosted instance points them at the service, a proxy or the sandbox), not environment
 * variables as on Zapier.
 */
export async function pagerlyFor(context: N8nBaseContext, itemIndex?: number, summaries?: ClientSummaries): Promise<PagerlyClient> {
  const credential = await context.getCredentials(CREDENTIAL.name, itemIndex);
  return createClient({
    apiKey: (credential[connection.apiKeyField.key] as string | undefined) ?? '',
    baseUrl: text(credential[BASE_URL_FIELD]),
    rotationsBaseUrl: text(credential[ROTATIONS_BASE_URL_FIELD]),
    userAgent: 'pagerly-n8n',
    transport: n8nTransport(context),
    summaries,
  });
}
