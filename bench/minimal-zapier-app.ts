// The baseline for the Zapier app's per-call cost: the smallest zapier-platform-core 19 app that
// does the same work as the app's `team` trigger (same URL, same key header, the JSON back).
// Not shipped: only `npm run bench` runs it, through the same createAppHandler path.
import zapier from 'zapier-platform-core';
import type { Bundle, ZObject } from 'zapier-platform-core';

export const TEAMS_PATH = '/pagerly/o/zapier/allteams';

/** The minimal app's one request; `options` adds z.request options (the bench passes the app's `merge: false`). */
export const teamsPerform =
  (options: object = {}) =>
  async (z: ZObject, bundle: Bundle) => {
    const response = await z.request({
      url: `${process.env.PAGERLY_BASE_URL}${TEAMS_PATH}`,
      headers: { 'X-APIKEY': String(bundle.authData.apiKey) },
      ...options,
    });
    // core parses a JSON answer into `data` (prepare-response.js); its types leave it out.
    return (response as unknown as { data: unknown }).data;
  };

export const minimalApp = {
  version: '0.0.0',
  platformVersion: zapier.version,
  triggers: {
    team: {
      key: 'team',
      noun: 'Team',
      display: { label: 'Team', description: 'Lists the teams (benchmark baseline).' },
      operation: {
        perform: teamsPerform(),
      },
    },
  },
};
