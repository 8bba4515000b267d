import { type Bundle, defineTrigger, type ZObject } from 'zapier-platform-core';
import { teamList } from '../../shared/operations/team-list.ts';
import { zapierOutputFields } from '../fields/output-fields.ts';
import { teamLabelOutputField, withTeamLabel } from '../fields/team-dropdown.ts';
import { callPagerly } from '../pagerly-client.ts';
import { zapierNames, zapierText } from '../operation-names.ts';

/**
 * What fills every team dropdown, with its own literal type (tests call `perform` directly):
 * the teams as the service answered them, each with the label its option shows (team-dropdown.ts).
 */
export const teamOperation = {
  perform: async (z: ZObject, bundle: Bundle) => (await callPagerly(z, bundle, teamList.endpoint, {})).map(withTeamLabel),
  outputFields: [...zapierOutputFields(teamList.outputFields), teamLabelOutputField],
  sample: withTeamLabel(teamList.sample),
};

/**
 * The hidden trigger behind every team dropdown (`team.name.name_shown`), checked against core's
 * Trigger type. A hidden trigger is what docs.zapier.com's "Dynamic dropdowns" page
 * (https://docs.zapier.com/platform/build-cli/dynamic-dropdowns) documents; the CLI's own
 * dynamic-dropdown template (zapier-platform-cli 19, src/generators/templates/dynamic-dropdown)
 * calls it the "Legacy Pattern" beside a field's `choices.perform`, which the docs do not describe
 * yet. Its key is public contract, and the main job and the bench call it.
 */
export const teamTrigger = defineTrigger({
  key: zapierNames.listTeams.key,
  noun: teamList.noun,
  display: { label: zapierNames.listTeams.label, description: zapierText(teamList.description), hidden: true },
  operation: teamOperation,
});
