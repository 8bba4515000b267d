import type { SearchOperation } from './types.ts';
import { emailField, teamField } from './fields.ts';
import { GROUPS } from './groups.ts';
import { derivedOutputFields, shapeItem, type ItemShape } from './item-shape.ts';
import { directoryEntryOutput, directoryEntrySample, onCallUserOutput, peopleFields, teamOutput } from './outputs.ts';

/**
 * Each person found in one team, with that team and a summary of the people on call in it
 * (names, e-mails, count), so the first result of a team can notify the whole team. The summary
 * reads one team's answer (`body`, shared/operations/search-results.ts), never everyone's: an item
 * repeating every team's people made "everyone on call" grow with the square of the people.
 */
const onCallItem: ItemShape = { spread: 'item', fields: peopleFields('body', 'on_call', 'On Call in This Team') };

/** Two people on call in Payments, as `GET /o/currentusers?teamname=Payments` answers, each with the team. */
const payments = { id: 'team_payments', name: 'Payments' };
const onCallAnswer = [
  { id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: 'https://images.acme.example/edsger.png', team: payments },
  { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@acme.example', imageurl: null, team: payments },
];

export const findOnCallUsers: SearchOperation = {
  kind: 'search',
  id: 'getOnCallUsers',
  group: GROUPS.onCall,
  endpoint: 'listOnCallUsers',
  results: 'each-element',
  notFoundIsEmpty: false,
  noun: 'On-Call User',
  description:
    'Finds the people on call right now for a team, or in every team: one result per person on call in a team, with the team. Nobody on call is an empty result, not an error. Each result also carries the names, e-mails and count of everyone on call in its team, so one result is enough to notify that team.',
  inputFields: [teamField(false, 'The team to look up. Leave empty for everyone on call in every team (someone on call in two teams is one result in each).')],
  teamByTeam: { field: 'teamname' },
  item: onCallItem,
  outputFields: [...onCallUserOutput, { key: 'team', label: 'Team', type: 'object', spec: teamOutput }, ...derivedOutputFields(onCallItem)],
  sample: shapeItem(onCallItem, { body: onCallAnswer, item: onCallAnswer[0] }),
};

export const findDirectoryEntry: SearchOperation = {
  kind: 'search',
  id: 'getDirectoryEntry',
  group: GROUPS.directory,
  endpoint: 'getDirectoryEntry',
  results: 'single',
  notFoundIsEmpty: true,
  noun: 'Directory Entry',
  description: 'Finds a person in the on-call directory by e-mail, with their phone number and role.',
  inputFields: [emailField('The e-mail to look up.')],
  item: { spread: 'body', fields: {} },
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};
