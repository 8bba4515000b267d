import { endpoints } from '../../shared/catalog/endpoints.ts';
import { connection } from '../../shared/operations/connection.ts';
import { REDIRECT_STATUSES, unfollowedRedirectMessage } from '../../shared/http/redirect.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { ACTION_NODE, BASE_URL_FIELD, CREDENTIAL, ICON_FILE, ROTATIONS_BASE_URL_FIELD, TRIGGER_NODE } from '../names.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { n8nNodeName, n8nTriggerName } from '../operation-names.ts';
import { hookOperation, nodeOperationsOf } from '../runtime/operations.ts';
import { actionNodeProperties, nodeProperty } from './properties.ts';
import { code } from './ts-literal.ts';

/** What n8n's credential test says when the service refuses the key. */
export const INVALID_KEY_MESSAGE =
  "The service refused this API key. Copy it again from the Pagerly dashboard (API keys); a removed person's keys stop working.";

/** Where users read about the service and its API keys. */
export const DOCUMENTATION_URL = 'https://api.pagerly.io/docs';

const MAIN = code('NodeConnectionTypes.Main');
const credentials = [{ name: CREDENTIAL.name, required: true }];
const icon = `file:${ICON_FILE}`;

/** `INodeTypeDescription` of the Pagerly node: every action and search of the shared descriptions. */
export function actionNodeDescription(operations: readonly Operation[] = allOperations) {
  const labels = nodeOperationsOf(operations).map((op) => n8nNodeName(op).label.toLowerCase());
  return {
    displayName: ACTION_NODE.displayName,
    name: ACTION_NODE.name,
    icon,
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"]}}',
    description: `On-call and incidents in Pagerly: ${labels.join(', ')}.`,
    defaults: { name: ACTION_NODE.displayName },
    usableAsTool: true,
    inputs: [MAIN],
    outputs: [MAIN],
    credentials,
    properties: actionNodeProperties(operations),
  };
}

/** `INodeTypeDescription` of the trigger: the hook operation, on n8n's webhook lifecycle. */
export function triggerNodeDescription(operations: readonly Operation[] = allOperations) {
  const hook = hookOperation(operations);
  return {
    displayName: TRIGGER_NODE.displayName,
    name: TRIGGER_NODE.name,
    icon,
    group: ['trigger'],
    version: 1,
    subtitle: `=${n8nTriggerName(hook).label}`,
    description: hook.description,
    defaults: { name: TRIGGER_NODE.displayName },
    inputs: [],
    outputs: [MAIN],
    credentials,
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: hook.inputFields.map((field) => nodeProperty(field)),
  };
}

/** The credential's parts: one API key (a password field), the bases, the key check as test. */
export function credentialDescription() {
  const check = endpoints[connection.testEndpoint];
  return {
    name: CREDENTIAL.name,
    displayName: CREDENTIAL.displayName,
    icon: `file:${ICON_FILE}`,
    documentationUrl: DOCUMENTATION_URL,
    properties: [
      {
        displayName: connection.apiKeyField.label,
        name: connection.apiKeyField.key,
        type: 'string',
        typeOptions: { password: true },
        required: true,
        default: '',
        description: connection.apiKeyField.help,
      },
      {
        displayName: 'Base URL',
        name: BASE_URL_FIELD,
        type: 'string',
        default: DEFAULT_BASE_URL,
        description: 'The address of the Pagerly API. Change it only for a proxy or a test service.',
      },
      {
        displayName: 'Rotations Base URL',
        name: ROTATIONS_BASE_URL_FIELD,
        type: 'string',
        default: '',
        placeholder: `${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}`,
        description: `Where teams and who is on call are looked up. Leave empty for the Base URL followed by ${ROTATIONS_SEGMENT}.`,
      },
    ],
    authenticate: { type: 'generic', properties: { headers: { [API_KEY_HEADER]: `={{$credentials.${connection.apiKeyField.key}}}` } } },
    test: {
      // n8n would follow a redirect to any host with X-APIKEY on (only Authorization and Cookie
      // are dropped): the test does not follow one, and says what a redirect means.
      request: { baseURL: `={{$credentials.${BASE_URL_FIELD}}}`, url: check.path, method: check.method, disableFollowRedirect: true },
      rules: [
        // Assumption `auth-error`: the key check answers a bad key with a 400 (documented) or a 401.
        ...[400, 401].map((value) => ({ type: 'responseCode', properties: { value, message: INVALID_KEY_MESSAGE } })),
        ...[...REDIRECT_STATUSES].map((value) => ({ type: 'responseCode', properties: { value, message: unfollowedRedirectMessage(value) } })),
      ],
    },
  };
}
