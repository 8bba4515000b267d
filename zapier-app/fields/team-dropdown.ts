import type { PlainOutputField } from 'zapier-platform-core';
import { teamList } from '../../shared/operations/team-list.ts';
import { showInvisibleControls } from '../../shared/visible-controls.ts';
import { zapierNames } from '../operation-names.ts';
import { intern } from './intern.ts';

/**
 * The field each team dropdown shows as an option's label: the team's name with its invisible
 * controls shown (shared/visible-controls.ts), so "Ops \u202Esyap" never reads as "Ops pays" on
 * Zapier's page. The value stays the name as it came: live Zaps store it, and the service takes it.
 * A field of its own, because Zapier's dropdown reads its label from a field of the trigger's items.
 */
export const TEAM_LABEL_FIELD = 'name_shown';

/**
 * A dynamic dropdown names the trigger, the field used as value and, last, the one shown as
 * label (`trigger.value.label`: docs.zapier.com/platform/build-cli/dynamic-dropdowns; the
 * schema's RefResourceSchema `{resource_key}.{foreign_key}(.{human_label_key})`).
 */
export const TEAM_DROPDOWN = `${zapierNames.listTeams.key}.${teamList.valueField}.${TEAM_LABEL_FIELD}`;

export const teamLabelOutputField: PlainOutputField = intern({ key: TEAM_LABEL_FIELD, label: 'Team Name as Shown', type: 'string' });

/** A team of the service's answer with the label its dropdown option shows; every field it came with is kept. */
export function withTeamLabel<T extends Record<string, unknown>>(team: T): T & { [TEAM_LABEL_FIELD]: string } {
  const name = team[teamList.labelField];
  return { ...team, [TEAM_LABEL_FIELD]: showInvisibleControls(typeof name === 'string' ? name : String(name ?? '')) };
}
