import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import { standalone } from './communication.ts';
import { errorDirective, validDirective } from './response-directives.ts';
import { optionalParameter, outputTemplate } from './iml-expressions.ts';
import { keyHeader } from './iml-key.ts';
import { makeParameter } from './parameters.ts';

const KEY = keyHeader('connection.apiKey');
/** What attach stores and detach reads back (`{{webhook.externalHookId}}`): the service's subscription id. */
const STORED_ID = 'externalHookId';

// Assumption `unknown-team` matches names ignoring case; a payload that names no team is kept.
const FOR_CHOSEN_TEAM =
  "{{ifempty(parameters.teamname, '') == '' || lower(trim(toString(ifempty(body.team.name, parameters.teamname)))) == lower(trim(toString(parameters.teamname)))}}";

/** The dedicated, attached webhook behind the instant trigger `watchOnCallChanges`. */
export function webhookFiles() {
  return {
    communication: {
      condition: FOR_CHOSEN_TEAM,
      output: outputTemplate(onCallChanged.item, { tolerant: true }),
      respond: { status: 200, type: 'json', body: { received: true } },
    },
    params: onCallChanged.inputFields.map(makeParameter),
    attach: standalone(onCallChanged.subscribe.make, KEY, {
      body: { url: '{{webhook.url}}', teamname: optionalParameter('teamname') },
      // Without a JSON answer there is no id to store, and the hook could never be removed.
      response: { valid: validDirective(), data: { [STORED_ID]: '{{body.id}}' }, error: errorDirective() },
    }),
    // A hook already gone (404: the service dropped it after a 410) is the goal reached, not an error.
    detach: standalone(onCallChanged.unsubscribe.make, KEY, { response: { valid: validDirective([404]), error: errorDirective() } }, { id: `{{webhook.${STORED_ID}}}` }),
  };
}
