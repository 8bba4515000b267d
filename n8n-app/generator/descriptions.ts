import { endpoints } from '../../shared/catalog/endpoints.ts';
import { connection } from '../../shared/operations/connection.ts';
import { REDIRECT_STATUSES, unfollowedRedirectMessage } from '../../shared/http/redirect.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { ACTION_NODE, BASE_URL_FIELD, CREDENTIAL, ICON_FILES, ROTATIONS_BASE_URL_FIELD, TRIGGER_NODE } from '../names.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { n8nTriggerName } from '../operation-names.ts';
import { hookOperation } from '../runtime/operations.ts';
import { actionNodeProperties, operationProperties } from './properties.ts';
import { n8nWords } from './wording.ts';
import { code } from './ts-literal.ts';

/** What n8n's credential test says when the service refuses the key. */
export const INVALID_KEY_MESSAGE =
  "The service refused this API key. Copy it again from the Pagerly dashboard (API keys); a removed person's keys stop working.";

/** Where users read about the service and its API keys. */
export const DOCUMENTATION_URL = 'https://api.pagerly.io/docs';

const MAIN = code('NodeConnectionTypes.Main');
const credentials = [{ name: CREDENTIAL.name, required: true }];
/** A node's icon: n8n's light and dark variants, beside the node's source. */
const icon = { light: `file:${ICON_FILES.light}`, dark: `file:${ICON_FILES.dark}` };

/** `INodeTypeDescription` of the Pagerly node: every action and search of the shared descriptions. */
export function actionNodeDescription(operations: readonly Operation[] = allOperations) {
  return {
    displayName: ACTION_NODE.displayName,
    name: ACTION_NODE.name,
    icon,
    group: ['transform'],
    version: 1,
    // n8n's own nodes' subtitle: the operation and the resource it acts on.
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Consume the Pagerly API: incidents, the on-call directory and who is on call',
    defaults: { name: ACTION_NODE.displayName },
    // An AI Agent node can call it as a tool (n8n's node-usable-as-tool rule).
    usableAsTool: true,
    inputs: [MAIN],
    outputs: [MAIN],
    credentials,
    properties: actionNodeProperties(operations),
  };
}

/**
 * What the polling trigger does and costs, in its description and the package README: a user
 * choosing a poll interval needs the number of requests each poll makes.
 */
export const POLLING_TRIGGER_SUMMARY =
  "Polls who is on call and triggers once for each person who goes on or off call in a team (the first poll only learns who is on call). Each poll makes 1 + the number of teams watched requests: the team list, then who is on call in each team. Poll Times sets how often; n8n's default is every minute.";

/**
 * `INodeTypeDescription` of the trigger: a polling trigger (`polling: true`, so n8n adds its
 * Poll Times parameter) with the hook operation's team field. The service documents no hook
 * path for n8n, so the trigger reads documented calls only instead of subscribing.
 */
export function triggerNodeDescription(operations: readonly Operation[] = allOperations) {
  const hook = hookOperation(operations);
  return {
    displayName: TRIGGER_NODE.displayName,
    name: TRIGGER_NODE.name,
    icon,
    group: ['trigger'],
    version: 1,
    subtitle: `=${n8nTriggerName(hook).label}`,
    description: POLLING_TRIGGER_SUMMARY,
    defaults: { name: TRIGGER_NODE.displayName },
    polling: true,
    inputs: [],
    outputs: [MAIN],
    credentials,
    properties: operationProperties(hook, n8nWords),
  };
}

/** The credential's parts: one API key (a password field), the bases, the key check as test. */
export function credentialDescription() {
  const check = endpoints[connection.testEndpoint];
  return {
    name: CREDENTIAL.name,
    displayName: CREDENTIAL.displayName,
    icon,
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
        placeholder: `e.g. ${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}`,
        description: `Where teams and who is on call are looked up. If not set, the Base URL followed by ${ROTATIONS_SEGMENT}.`,
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
