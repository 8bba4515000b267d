import { connection } from '../../shared/operations/connection.ts';
import { KEY_LABEL_FALLBACK } from '../../shared/operations/key-owner.ts';
import { standalone } from './communication.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { keyCheckRefusals, responseHandling } from './response-directives.ts';
import { connectionLabel, SENT_KEY } from './iml-key.ts';
import { showControlsIml } from './iml-visible-controls.ts';
import { makeText, sentenceCase } from '../wording.ts';

/**
 * Where the key is found (shared, assumption `dashboard`). A connection's hint links there, as
 * Make's reviewers ask of every credential field ("Parameter hints":
 * developers.make.com/custom-apps-documentation/best-practices/naming-conventions/input-parameters);
 * Make renders a hint's Markdown.
 */
const { name: DASHBOARD, url: DASHBOARD_URL } = connection.dashboard;

const KEY = `parameters.${connection.apiKeyField.key}` as const;
/** The `temp` entry the connection's label is made in, before `metadata` reads it. */
const LABEL = 'label';

/**
 * The `pagerly` connection: one API key, checked with GET /o/test/apikey. A key a header cannot
 * carry is not sent (iml-key.ts `keyHeader`), so the check fails with the service's refusal and
 * the advice to copy the key again, never repeating it; the label never shows the key, and shows
 * the invisible controls of the names in it (iml-visible-controls.ts). It is made in
 * `response.temp`, which Make evaluates before the other response directives (Custom apps ›
 * temp), since the rule written out is longer than the 512 characters Make's schema allows
 * `metadata.value`.
 */
export function connectionFiles() {
  const checksKey = endpoints[connection.testEndpoint].checksKey;
  const handling = responseHandling(SENT_KEY, { json: false, keyCheck: checksKey });
  return {
    communication: standalone(connection.testEndpoint, KEY, {
      // Any 2xx is a valid key, whatever its body or content type: the spec gives no shape for
      // this answer (5.7). Its 400, 401 and 403 are a refused key (the catalog's `checksKey`);
      // other answers are typed by status (errors.ts); a 3xx is not followed and not a check.
      response: {
        ...handling,
        temp: { ...handling.temp, [LABEL]: `{{${showControlsIml(connectionLabel(SENT_KEY, KEY_LABEL_FALLBACK))}}}` },
        error: checksKey ? { ...handling.error, ...keyCheckRefusals() } : handling.error,
        metadata: { type: 'text', value: `{{temp.${LABEL}}}` },
      },
    }),
    params: [
      {
        name: connection.apiKeyField.key,
        type: 'password',
        label: sentenceCase(connection.apiKeyField.label),
        required: true,
        editable: true,
        help: makeText(connection.apiKeyField.help).replace(DASHBOARD, `[${DASHBOARD}](${DASHBOARD_URL})`),
      },
    ],
  };
}
