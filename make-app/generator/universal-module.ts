import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import type { ModuleFiles } from './modules.ts';

const keyValue = (label: string) =>
  [
    { name: 'key', type: 'text', label: 'Key' },
    { name: 'value', type: 'text', label: 'Value' },
  ].map((field) => ({ ...field, label: `${label} ${field.label.toLowerCase()}` }));

/**
 * "Make an API call", the module Make users expect from every app, labelled and described as
 * Make's Best practices › Modules (universal module) ask: any path of the API, relative to the
 * base (its help says which), sent with the connection's key (the Base adds it), query string and
 * headers as arrays of their own, answered as body, headers and status.
 */
export function universalModule(): ModuleFiles {
  return {
    moduleType: 'universal',
    label: 'Make an API call',
    description: 'Performs an arbitrary authorized API call.',
    communication: {
      // Always a path under the Base's URL: an absolute URL given here must never receive the key.
      url: "/{{if(substring(toString(parameters.url), 0, 1) == '/', substring(toString(parameters.url), 1), parameters.url)}}",
      method: '{{parameters.method}}',
      qs: { '{{...}}': "{{toCollection(parameters.qs, 'key', 'value')}}" },
      headers: { '{{...}}': "{{toCollection(parameters.headers, 'key', 'value')}}" },
      body: '{{parameters.body}}',
      type: 'text',
      // A raw call gives what came: any 2xx or 3xx (a redirect is not followed, its Location is
      // in the headers), JSON or not, overriding the Base's JSON check; 4xx and 5xx keep the
      // Base's errors (Make lets `valid` decide only for 2xx and 3xx).
      response: { valid: '{{statusCode < 400}}', output: { body: '{{body}}', headers: '{{headers}}', statusCode: '{{statusCode}}' } },
    },
    staticParams: [],
    mappableParams: [
      {
        name: 'url',
        type: 'text',
        label: 'URL',
        required: true,
        help: `A path relative to the base URL ${DEFAULT_BASE_URL}, starting with a slash. For example: \`/o/oncalluser?email=alex@example.com\`, or \`${ROTATIONS_SEGMENT}/o/zapier/allteams\` for the teams.`,
      },
      {
        name: 'method',
        type: 'select',
        label: 'Method',
        required: true,
        default: 'GET',
        options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ label: method, value: method })),
        help: 'The HTTP method the endpoint takes.',
      },
      {
        name: 'headers',
        type: 'array',
        label: 'Headers',
        spec: keyValue('Header'),
        default: [{ key: 'Content-Type', value: 'application/json' }],
        help: 'You do not need to add the API key: the connection adds it.',
      },
      { name: 'qs', type: 'array', label: 'Query string', spec: keyValue('Query'), help: 'Query parameters, e.g. `teamname`.' },
      { name: 'body', type: 'any', label: 'Body', help: 'The JSON body, for POST requests. For example: `{"title": "Deploy failed", "severity": "P2"}`.' },
    ],
    interface: [
      { name: 'body', type: 'any', label: 'Body' },
      { name: 'headers', type: 'collection', label: 'Headers' },
      { name: 'statusCode', type: 'number', label: 'Status code' },
    ],
    samples: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: [{ id: 'team_platform', name: 'Platform' }] },
  };
}
