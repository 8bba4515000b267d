import type { ListOperation } from './types.ts';

/** The team dropdown: value and label are the team's name, which is what `currentusers` and hooks take. */
export const teamList = {
  kind: 'list',
  id: 'listTeams',
  endpoint: 'listTeams',
  valueField: 'name',
  labelField: 'name',
  noun: 'Team',
  description: 'Lists the teams of the organization, for team dropdowns.',
  inputFields: [],
  outputFields: [
    { key: 'id', label: 'Team ID', type: 'string' },
    { key: 'name', label: 'Team Name', type: 'string' },
  ],
  sample: { id: 'team_platform', name: 'Platform' },
} satisfies ListOperation;
