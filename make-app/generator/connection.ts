import { connection } from '../../shared/operations/connection.ts';
import { standalone } from './communication.ts';
import { errorDirective, validDirective } from './errors.ts';

/** The `pagerly` connection: one API key, checked with GET /o/test/apikey. */
export function connectionFiles() {
  const label = "{{ifempty(body.user.name, 'Pagerly API key')}}{{if(body.organization.name, ' (' + body.organization.name + ')', '')}}";
  return {
    communication: standalone(connection.testEndpoint, `{{parameters.${connection.apiKeyField.key}}}`, {
      // A 200 that is not JSON (a proxy's page) must not pass for a checked key.
      response: { valid: validDirective([], 'parameters.apiKey'), metadata: { type: 'text', value: label }, error: errorDirective('parameters.apiKey') },
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
