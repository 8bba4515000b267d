import { connection } from '../../shared/operations/connection.ts';
import { KEY_LABEL_FALLBACK } from '../../shared/operations/key-owner.ts';
import { standalone } from './communication.ts';
import { errorDirective, validDirective } from './response-directives.ts';
import { connectionLabel, keyHeader } from './iml-key.ts';

const KEY = `parameters.${connection.apiKeyField.key}` as const;

/**
 * The `pagerly` connection: one API key, checked with GET /o/test/apikey. A key a header cannot
 * carry is not sent (iml-key.ts `keyHeader`), so the check fails with the service's refusal and
 * the advice to copy the key again, never repeating it; the label never shows the key.
 */
export function connectionFiles() {
  return {
    communication: standalone(connection.testEndpoint, keyHeader(KEY), {
      // A 200 that is not JSON (a proxy's page) must not pass for a checked key.
      response: {
        valid: validDirective([], KEY),
        metadata: { type: 'text', value: connectionLabel(KEY, KEY_LABEL_FALLBACK) },
        error: errorDirective(KEY),
      },
    }),
    params: [
      {
        name: connection.apiKeyField.key,
        type: 'password',
        label: connection.apiKeyField.label,
        required: true,
        editable: true,
        help: connection.apiKeyField.help,
      },
    ],
  };
}
