import type { SearchOperation } from './types.ts';
import { emailField, teamField } from './fields.ts';
import { directoryEntryOutput, directoryEntrySample, onCallUserOutput } from './outputs.ts';

export const findOnCallUsers: SearchOperation = {
  kind: 'search',
  key: 'find_on_call_users',
  makeName: 'listOnCallUsers',
  endpoint: 'listOnCallUsers',
  results: 'each-element',
  notFoundIsEmpty: false,
  noun: 'On-Call User',
  label: 'Find Who Is On Call',
  makeLabel: 'Search on-call users',
  description: 'Finds the people on call right now for a team, or in every team. Nobody on call is an empty result, not an error. Each result also carries everyone\'s names and e-mails, so the first result is enough to notify them all.',
  inputFields: [teamField(false, 'The team to look up. Leave empty for everyone on call in any team (each person once).')],
  item: {
    spread: 'item',
    fields: {
      on_call_names: { join: 'body', field: 'name', separator: ', ' },
      on_call_emails: { join: 'body', field: 'email', separator: ', ' },
      on_call_count: { count: 'body' },
    },
  },
  outputFields: [
    ...onCallUserOutput,
    { key: 'on_call_names', label: 'Everyone On Call: Names', type: 'string' },
    { key: 'on_call_emails', label: 'Everyone On Call: E-mails', type: 'string' },
    { key: 'on_call_count', label: 'Everyone On Call: Count', type: 'number' },
  ],
  sample: {
    id: 'usr_edsger',
    name: 'Edsger Dijkstra',
    email: 'edsger@acme.example',
    imageurl: 'https://images.acme.example/edsger.png',
    on_call_names: 'Edsger Dijkstra, Grace Hopper',
    on_call_emails: 'edsger@acme.example, grace@acme.example',
    on_call_count: 2,
  },
};

export const findDirectoryEntry: SearchOperation = {
  kind: 'search',
  key: 'find_directory_entry',
  makeName: 'getDirectoryEntry',
  endpoint: 'getDirectoryEntry',
  results: 'single',
  notFoundIsEmpty: true,
  noun: 'Directory Entry',
  label: 'Find Directory Entry',
  makeLabel: 'Get a directory entry',
  description: 'Finds a person in the on-call directory by e-mail, with their phone number and role. No entry is an empty result, not an error.',
  inputFields: [emailField('The e-mail to look up.')],
  item: { spread: 'body', fields: {} },
  outputFields: directoryEntryOutput,
  sample: directoryEntrySample,
};
