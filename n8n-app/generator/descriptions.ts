import { connection } from '../../shared/operations/connection.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { ACTION_NODE, BASE_URL_FIELD, CREDENTIAL, CREDENTIAL_TEST_METHOD, ICON_FILES, ROTATIONS_BASE_URL_FIELD, TRIGGER_NODE } from '../names.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { n8nTriggerName } from '../operation-names.ts';
import { N8N_BASE_SETTINGS } from '../runtime/credential-test.ts';
import { hookOperation } from '../runtime/operations.ts';
import { actionNodeProperties, operationProperties } from './properties.ts';
import { n8nWords } from './wording.ts';
import { code } from './ts-literal.ts';

/** Where users read about the service and its API keys. */
export const DOCUMENTATION_URL = 'https://api.pagerly.io/docs';

const MAIN = code('NodeConnectionTypes.Main');
/**
 * Each node tests the credential with its \`methods.credentialTest\` (\`testedBy\`), not with a
 * declarative \`test\` on the credential, which is one request at one base: the shared connection
 * check makes a call at each base (shared/operations/connection-check.ts). n8n's lint accepts a
 * credential without \`test\` when every node using it names a test (credential-test-required).
 */
const credentials = [{ name: CREDENTIAL.name, required: true, testedBy: CREDENTIAL_TEST_METHOD }];
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
 * The trigger in the nodes panel: one line, what starts the workflow, as n8n's own triggers
 * say it ("Starts the workflow when …"); how it polls is in the notice above its parameters.
 */
export const TRIGGER_DESCRIPTION = 'Starts the workflow when someone goes on or off call in a team';

/**
 * How the polling trigger works and what a poll costs, in a notice in the node's panel and in
 * the package README: a user choosing a poll interval needs the number of requests each poll makes.
 */
export const POLLING_NOTICE =
  "The trigger polls: its first poll only learns who is on call. Each poll makes 1 + the number of teams watched requests (the team list, then each team). Poll Times sets how often; n8n's default is every minute.";

/** The notice's parameter name: n8n shows a `notice` as text above the parameters and stores no value for it. */
export const POLLING_NOTICE_NAME = 'pollingNotice';

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
    description: TRIGGER_DESCRIPTION,
    defaults: { name: TRIGGER_NODE.displayName },
    polling: true,
    inputs: [],
    outputs: [MAIN],
    credentials,
    properties: [{ displayName: POLLING_NOTICE, name: POLLING_NOTICE_NAME, type: 'notice', default: '' }, ...operationProperties(hook, n8nWords)],
  };
}

/** The credential's parts: one API key (a password field) and the bases; the nodes test it (\`testedBy\`). */
export function credentialDescription() {
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
        // The connection check's messages name the fields by these labels.
        displayName: N8N_BASE_SETTINGS.api,
        name: BASE_URL_FIELD,
        type: 'string',
        default: DEFAULT_BASE_URL,
        description: 'The address of the Pagerly API. Change it only for a proxy or a test service.',
      },
      {
        displayName: N8N_BASE_SETTINGS.rotations,
        name: ROTATIONS_BASE_URL_FIELD,
        type: 'string',
        default: '',
        placeholder: `e.g. ${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}`,
        description: `Where teams and who is on call are looked up. If not set, the Base URL followed by ${ROTATIONS_SEGMENT}.`,
      },
    ],
    authenticate: { type: 'generic', properties: { headers: { [API_KEY_HEADER]: `={{$credentials.${connection.apiKeyField.key}}}` } } },
  };
}
