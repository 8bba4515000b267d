import { teamList } from '../../shared/operations/team-list.ts';
import { relativeUrl } from './communication.ts';

/** `listTeams`: the options of every team select (value and label = the team's name). */
export function teamRpcFiles() {
  return {
    communication: {
      url: relativeUrl(teamList.endpoint),
      method: 'GET',
      response: { iterate: '{{body}}', output: { label: `{{item.${teamList.labelField}}}`, value: `{{item.${teamList.valueField}}}` } },
    },
    params: [],
  };
}
