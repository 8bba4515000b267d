import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import { makeHookEndpoints } from '../hook-endpoints.ts';
import { standalone } from './communication.ts';
import { HOOK_ALREADY_GONE } from '../../shared/operations/hook-removal.ts';
import { responseHandling } from './response-directives.ts';
import { optionalParameter, outputTemplate } from './iml-expressions.ts';
import type { KeyVariable } from './iml-key.ts';
import { makeParameter } from './parameters.ts';

const KEY: KeyVariable = 'connection.apiKey';
/** What attach stores and detach reads back (`{{webhook.externalHookId}}`): the service's subscription id. */
const STORED_ID = 'externalHookId';

// Assumption `unknown-team` matches names ignoring case; a payload that names no team (no
// non-empty text at team.name) is kept. Only booleans meet && and ||, and no payload value meets
// ifempty or a bare condition: Make's docs leave their reading of an empty array open.
const NAMES_A_TEAM = "toString(body.team.name) == body.team.name && body.team.name != ''";
const FOR_CHOSEN_TEAM = `{{!parameters.teamname || !(${NAMES_A_TEAM}) || lower(trim(body.team.name)) == lower(trim(toString(parameters.teamname)))}}`;

/**
 * Detach (DELETE of the subscription). Make cannot take a 404 for success (Custom apps › Error
 * handling), and its docs say nothing of what happens to the webhook when detach fails
 * (Webhooks › Attached: "No response processing is needed"). So a hook already gone (the service
 * drops one after Make answers 410), or one the service cannot remove (405), ends in one clear sentence that says nothing is
 * left to remove: the user learns the removal is already complete, never a bare "Not found".
 */
function detachResponse() {
  const handling = responseHandling();
  const gone = {
    type: 'DataError',
    message: '[{{statusCode}}] Pagerly no longer has this subscription, so it sends nothing to this webhook: nothing is left to detach.',
  };
  // The statuses the shared rule reads as "already gone" (hook-removal.ts), each said the same way.
  return { ...handling, error: { ...handling.error, ...Object.fromEntries([...HOOK_ALREADY_GONE].map((status) => [String(status), gone])) } };
}

/** The dedicated, attached webhook behind the instant trigger `watchOnCallChanges`. */
export function webhookFiles() {
  return {
    communication: {
      condition: FOR_CHOSEN_TEAM,
      output: outputTemplate(onCallChanged.item, { tolerant: true }),
      respond: { status: 200, type: 'json', body: { received: true } },
    },
    params: onCallChanged.inputFields.map((field) => makeParameter(field)),
    attach: standalone(makeHookEndpoints.subscribe, KEY, {
      body: { url: '{{webhook.url}}', teamname: optionalParameter('teamname') },
      // Without a JSON answer there is no id to store, and the hook could never be removed.
      response: { ...responseHandling(), data: { [STORED_ID]: '{{body.id}}' } },
    }),
    detach: standalone(makeHookEndpoints.unsubscribe, KEY, { response: detachResponse() }, { id: `{{webhook.${STORED_ID}}}` }),
  };
}
