import { endpoints } from '../../shared/catalog/endpoints.ts';
import { teamList } from '../../shared/operations/team-list.ts';
import { relativeUrl } from './communication.ts';
import { showControlsIml } from './iml-visible-controls.ts';

/**
 * The most teams the team select offers. Make's App review prerequisites make a limit mandatory
 * for search modules, triggers and RPCs
 * (developers.make.com/custom-apps-documentation/app-review/prerequisites), and its Remote
 * Procedure Calls page asks an RPC for "a sample of the last 100 or so items" to pick from
 * while setting a scenario up; a team beyond them can still be typed or mapped.
 */
export const TEAM_OPTIONS_LIMIT = 100;

/**
 * `listTeams`: the options of every team select. The value is the team's name as it came, which
 * saved scenarios hold and the service takes; the label is that name with its invisible
 * controls shown (iml-visible-controls.ts), so "Ops \u202Esyap" never reads as "Ops pays".
 */
export function teamRpcFiles() {
  return {
    communication: {
      url: relativeUrl(endpoints[teamList.endpoint]),
      method: endpoints[teamList.endpoint].method,
      response: {
        iterate: '{{body}}',
        limit: TEAM_OPTIONS_LIMIT,
        output: { label: `{{${showControlsIml(`toString(item.${teamList.labelField})`)}}}`, value: `{{item.${teamList.valueField}}}` },
      },
    },
    params: [],
  };
}
