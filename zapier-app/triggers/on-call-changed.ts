import { type Bundle, defineTrigger, type ZObject } from 'zapier-platform-core';
import { NotFoundError } from '../../shared/errors.ts';
import { noTeamNamed } from '../../shared/on-call/close-matches.ts';
import { hookAlreadyGone } from '../../shared/operations/hook-removal.ts';
import { EVENT_ID_HEADER } from '../../shared/schemas/on-call-change-event.ts';
import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import { currentOnCallItem, findTeam, isForTeam, onCallChangeItem } from '../../shared/operations/on-call-change-item.ts';
import { endpointInput } from '../../shared/operations/endpoint-input.ts';
import { zapierInputField } from '../fields/input-fields.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { clientForBundle, withZapierErrors } from '../pagerly-client.ts';
import { zapierHookEndpoints } from '../hook-endpoints.ts';
import { zapierDisplay, zapierNames } from '../operation-names.ts';

/**
 * performList samples at most this many teams when no team is chosen, one request each: Zapier
 * shows a few samples to pick from and asks for at most 3 while a Zap is set up
 * (`bundle.meta.isLoadingSample`), and fewer requests keep the test step fast.
 */
const SAMPLED_TEAMS = 3;

/** The delivered payload: parsed JSON when Zapier parsed it, else the raw body, never nothing. */
function deliveredPayload(bundle: Bundle): unknown {
  // core gives cleanedRequest the type `any`: read it as unknown and look before use.
  const cleaned = bundle.cleanedRequest as unknown;
  if (cleaned !== null && typeof cleaned === 'object' && Object.keys(cleaned).length > 0) return cleaned;
  const content = bundle.rawRequest?.content;
  if (content === undefined || content === '') return cleaned ?? {};
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** Zapier passes the hook's headers with varying prefixes and case ("Http-X-Pagerly-Event-Id"). */
function eventIdHeader(bundle: Bundle): string | undefined {
  const headers = bundle.rawRequest?.headers ?? {};
  const match = Object.entries(headers).find(([name]) => name.toLowerCase().endsWith(EVENT_ID_HEADER));
  return match?.[1];
}

const teamOf = (bundle: Bundle) => endpointInput(onCallChanged.inputFields, bundle.inputData).teamname as string | undefined;

/**
 * The REST hook at /o/zapier/subscribe, with its own literal type (tests and the main job call
 * `performSubscribe` and the rest without narrowing core's union of trigger operations).
 */
export const onCallChangedOperation = {
  type: 'hook' as const,
  inputFields: onCallChanged.inputFields.map(zapierInputField),

  performSubscribe: (z: ZObject, bundle: Bundle) => {
    const teamname = teamOf(bundle);
    return withZapierErrors(z, () =>
      clientForBundle(z, bundle).call(zapierHookEndpoints.subscribe, { url: bundle.targetUrl ?? '', ...(teamname ? { teamname } : {}) }),
    );
  },

  performUnsubscribe: (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, async () => {
      const id = (bundle.subscribeData as { id?: unknown } | undefined)?.id;
      // Nothing was stored at subscribe time: there is nothing this app could remove.
      if (id === undefined || id === null || id === '') return { removed: false };
      try {
        return await clientForBundle(z, bundle).call(zapierHookEndpoints.unsubscribe, { id: String(id) });
      } catch (error) {
        // Already gone, or no removal there (404, 405, 410): the goal is reached; Zapier's own
        // rule, a hook URL answering 410 is removed by the sender, covers the rest.
        if (hookAlreadyGone(error)) return { id: String(id), removed: true };
        throw error;
      }
    }),

  perform: (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, async () => {
      const item = onCallChangeItem(deliveredPayload(bundle), new Date(), eventIdHeader(bundle));
      return isForTeam(item, teamOf(bundle)) ? [item] : [];
    }),

  performList: (z: ZObject, bundle: Bundle) =>
    withZapierErrors(z, async () => {
      const pagerly = clientForBundle(z, bundle);
      const teams = await pagerly.listTeams();
      const teamname = teamOf(bundle);
      const chosen = teamname ? findTeam(teams, teamname) : undefined;
      if (teamname && !chosen) {
        // The name as typed is quoted back with the key taken out (a key pasted into the wrong field).
        throw new NotFoundError(pagerly.redact(`${noTeamNamed(teamname, teams, ' in this organization')} Pick one from the Team dropdown.`));
      }
      const asked = bundle.meta?.limit;
      const limit = !bundle.meta?.isLoadingSample && asked && asked > 0 && asked < SAMPLED_TEAMS ? asked : SAMPLED_TEAMS;
      const sampled = chosen ? [chosen] : teams.slice(0, limit);
      const now = new Date();
      return Promise.all(sampled.map(async (team) => currentOnCallItem(team, await pagerly.listOnCallUsers({ teamname: team.name }), now)));
    }),

  outputFields: zapierOutputFields(onCallChanged.outputFields),
  sample: onCallChanged.sample,
};

/** The instant trigger, checked against core's Trigger type. */
export const onCallChangedTrigger = defineTrigger({
  key: zapierNames.onCallChanged.key,
  noun: onCallChanged.noun,
  display: zapierDisplay(onCallChanged),
  operation: onCallChangedOperation,
});
