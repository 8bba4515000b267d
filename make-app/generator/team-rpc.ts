import { endpoints } from '../../shared/catalog/endpoints.ts';
import { teamList } from '../../shared/operations/team-list.ts';
import { relativeUrl } from './communication.ts';

/** `listTeams`: the options of every team select (value and label = the team's name). */
export function teamRpcFiles() {
  return {
    communication: {
      url: relativeUrl(endpoints[teamList.endpoint]),
      method: endpoints[teamList.endpoint].method,
      response: { iterate: '{{body}}', output: { label: `{{item.${teamList.labelField}}}`, value: `{{item.${teamList.valueField}}}` } },
    },
    params: [],
  };
}
