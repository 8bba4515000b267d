import { type Bundle, defineTrigger, type ZObject } from 'zapier-platform-core';
import { teamList } from '../../shared/operations/team-list.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { callPagerly } from '../pagerly-client.ts';
import { zapierNames } from '../operation-names.ts';

/** What fills every team dropdown, with its own literal type (tests call `perform` directly). */
export const teamOperation = {
  perform: (z: ZObject, bundle: Bundle) => callPagerly(z, bundle, teamList.endpoint, {}),
  outputFields: zapierOutputFields(teamList.outputFields),
  sample: teamList.sample,
};

/** The hidden trigger behind every team dropdown (`team.name.name`), checked against core's Trigger type. */
export const teamTrigger = defineTrigger({
  key: zapierNames.listTeams.key,
  noun: teamList.noun,
  display: { label: zapierNames.listTeams.label, description: teamList.description, hidden: true },
  operation: teamOperation,
});
