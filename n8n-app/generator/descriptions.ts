import { endpoints } from '../../shared/catalog/endpoints.ts';
import { REDIRECT_STATUSES, unfollowedRedirectMessage } from '../../shared/http/redirect.ts';
import { connection } from '../../shared/operations/connection.ts';
import { API_KEY_HEADER } from '../../shared/http/types.ts';
import { DEFAULT_BASE_URL, ROTATIONS_SEGMENT } from '../../shared/settings.ts';
import { ACTION_NODE, BASE_FIELD_LABELS, BASE_URL_FIELD, CREDENTIAL, ICON_FILES, ROTATIONS_BASE_URL_FIELD, TRIGGER_NODE } from '../names.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { n8nTriggerName } from '../operation-names.ts';
import { hookOperation, nodeOperationsOf } from '../runtime/operations.ts';
import { actionNodeProperties, operationProperties, retiringNotice } from './properties.ts';
import { nodeVersions, type NodeVersions } from './versions.ts';
import { n8nWords } from './wording.ts';
import { code } from './ts-literal.ts';

/** What n8n's credential test says when the service refuses the key. */
export const INVALID_KEY_MESSAGE =
  "The service refused this API key. Copy it again from the Pagerly dashboard (API keys); a removed person's keys stop working.";

/** What it says when nothing answers the team list at the rotations base: which field to fix. */
export const ROTATIONS_NOT_FOUND_MESSAGE = `Nothing answers the team list at the rotations base (HTTP 404). If ${BASE_FIELD_LABELS.rotations} is set, check it; if not, teams are looked up at ${BASE_FIELD_LABELS.api} followed by ${ROTATIONS_SEGMENT}: check ${BASE_FIELD_LABELS.api}, the address of the Pagerly API (e.g. ${DEFAULT_BASE_URL}), not of teams and rotations (${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}).`;

/**
 * The rotations base as the API module resolves it (shared/settings.ts), as an n8n expression:
 * Rotations Base URL if set, else Base URL (without a trailing slash) followed by /pagerly.
 */
export const ROTATIONS_BASE_EXPRESSION = `={{ ($credentials.${ROTATIONS_BASE_URL_FIELD} || '').trim() || ($credentials.${BASE_URL_FIELD} || '${DEFAULT_BASE_URL}').trim().replace(/\\/+$/, '') + '${ROTATIONS_SEGMENT}' }}`;

/** Where users read about the service and its API keys. */
export const DOCUMENTATION_URL = 'https://api.pagerly.io/docs';

const MAIN = code('NodeConnectionTypes.Main');
const credentials = [{ name: CREDENTIAL.name, required: true }];
/** A node's icon: n8n's light and dark variants, beside the node's source. */
const icon = { light: `file:${ICON_FILES.light}`, dark: `file:${ICON_FILES.dark}` };

/** `version` as n8n takes it: one number while there is one version, else the list and the one new nodes get. */
const versionsOf = (node: NodeVersions) =>
  node.versions.length === 1 ? { version: node.newest } : { version: [...node.versions], defaultVersion: node.newest };

/** `INodeTypeDescription` of the Pagerly node: every action and search of the shared descriptions. */
export function actionNodeDescription(operations: readonly Operation[] = allOperations) {
  return {
    displayName: ACTION_NODE.displayName,
    name: ACTION_NODE.name,
    icon,
    group: ['transform'],
    ...versionsOf(nodeVersions(nodeOperationsOf(operations))),
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
    // A whole node on its way out is hidden from the nodes panel, as n8n hides its own deprecated
    // nodes (INodeTypeDescription.hidden: "due to deprecation"); saved workflows keep running it.
    ...(hook.retiring ? { hidden: true as const } : {}),
    subtitle: `=${n8nTriggerName(hook).label}`,
    description: TRIGGER_DESCRIPTION,
    defaults: { name: TRIGGER_NODE.displayName },
    polling: true,
    inputs: [],
    outputs: [MAIN],
    credentials,
    properties: [
      ...retiringNotice(hook),
      { displayName: POLLING_NOTICE, name: POLLING_NOTICE_NAME, type: 'notice', default: '' },
      ...operationProperties(hook, n8nWords),
    ],
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
        // The credential test's messages name the fields by these labels.
        displayName: BASE_FIELD_LABELS.api,
        name: BASE_URL_FIELD,
        type: 'string',
        default: DEFAULT_BASE_URL,
        description: 'The address of the Pagerly API. Change it only for a proxy or a test service.',
      },
      {
        displayName: BASE_FIELD_LABELS.rotations,
        name: ROTATIONS_BASE_URL_FIELD,
        type: 'string',
        default: '',
        placeholder: `e.g. ${DEFAULT_BASE_URL}${ROTATIONS_SEGMENT}`,
        description: `Where teams and who is on call are looked up. If not set, the Base URL followed by ${ROTATIONS_SEGMENT}.`,
      },
    ],
    authenticate: { type: 'generic', properties: { headers: { [API_KEY_HEADER]: `={{$credentials.${connection.apiKeyField.key}}}` } } },
    test: {
      // One request, as n8n's declarative test is: the documented team list at the rotations
      // base, whose documented answer to a bad key is the 400. The key check alone answers at
      // the rotations address too, so a Base URL set to it passed, and every team lookup then
      // failed on /pagerly/pagerly/...: here it fails, naming the field. (A node's
      // methods.credentialTest could also make the key check at the Base URL, but n8n finds a
      // node's test only for a package installed as a community package, not for one loaded
      // from a custom extensions folder, as n8n-node dev and N8N_CUSTOM_EXTENSIONS load it.)
      // n8n would follow a redirect to any host with X-APIKEY on (only Authorization and Cookie
      // are dropped): the test does not follow one, and says what a redirect means.
      request: { baseURL: ROTATIONS_BASE_EXPRESSION, url: listTeams.path, method: listTeams.method, disableFollowRedirect: true },
      rules: [
        // The documented invalid-key answer is a 400 (assumption `auth-error`: or a 401).
        ...[400, 401].map((value) => ({ type: 'responseCode', properties: { value, message: INVALID_KEY_MESSAGE } })),
        { type: 'responseCode', properties: { value: 404, message: ROTATIONS_NOT_FOUND_MESSAGE } },
        ...[...REDIRECT_STATUSES].map((value) => ({ type: 'responseCode', properties: { value, message: unfollowedRedirectMessage(value, 'the team list') } })),
      ],
    },
  };
}

const listTeams = endpoints.listTeams;
