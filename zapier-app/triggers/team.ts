import type { Bundle, ZObject } from 'zapier-platform-core';
import { teamList } from '../../shared/operations/team-list.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { callPagerly } from '../pagerly-client.ts';
import { zapierNames } from '../operation-names.ts';

/** The hidden trigger behind every team dropdown (`team.name.name`). */
export const teamTrigger = {
  key: zapierNames.listTeams.key,
  noun: teamList.noun,
  display: { label: zapierNames.listTeams.label, description: teamList.description, hidden: true },
  operation: {
    perform: (z: ZObject, bundle: Bundle) => callPagerly(z, bundle, teamList.endpoint, {}),
    outputFields: zapierOutputFields(teamList.outputFields),
    sample: teamList.sample,
  },
};
