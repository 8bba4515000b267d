import type { HookOperation } from './types.ts';
import { onCallUserOutput } from './outputs.ts';
import { teamField } from './fields.ts';

const people = (list: 'body.current' | 'body.previous') => ({
  names: { join: list, field: 'name', separator: ', ' },
  emails: { join: list, field: 'email', separator: ', ' },
  count: { count: list },
});

/**
 * The instant trigger. The item keeps the whole payload (`spread`), so a field the service
 * adds later reaches the user, and adds flat fields a no-code user can map without line items.
 */
export const onCallChanged: HookOperation = {
  kind: 'hook',
  key: 'on_call_changed',
  makeName: 'watchOnCallChanges',
  noun: 'On-Call Change',
  label: 'On-Call Changed',
  makeLabel: 'Watch on-call changes',
  description: 'Triggers instantly when the people on call for a team change: a shift hands over, an override starts or ends, or someone leaves the rotation.',
  subscribe: { zapier: 'subscribeZapierHook', make: 'subscribeMakeHook' },
  unsubscribe: { zapier: 'unsubscribeZapierHook', make: 'unsubscribeMakeHook' },
  inputFields: [teamField(false, 'Only changes of this team. Leave empty for changes of every team.')],
  item: {
    spread: 'body',
    fields: {
      id: { path: 'body.id' },
      event_type: { path: 'body.type' },
      changed_at: { path: 'body.occurred_at' },
      team_id: { path: 'body.team.id' },
      team_name: { path: 'body.team.name' },
      current_names: people('body.current').names,
      current_emails: people('body.current').emails,
      current_count: people('body.current').count,
      previous_names: people('body.previous').names,
      previous_emails: people('body.previous').emails,
      previous_count: people('body.previous').count,
    },
  },
  outputFields: [
    { key: 'id', label: 'Event ID', type: 'string' },
    { key: 'event_type', label: 'Event Type', type: 'string' },
    { key: 'changed_at', label: 'Changed At', type: 'datetime' },
    { key: 'team_id', label: 'Team ID', type: 'string' },
    { key: 'team_name', label: 'Team Name', type: 'string' },
    { key: 'current_names', label: 'On Call Now: Names', type: 'string' },
    { key: 'current_emails', label: 'On Call Now: E-mails', type: 'string' },
    { key: 'current_count', label: 'On Call Now: Count', type: 'number' },
    { key: 'previous_names', label: 'On Call Before: Names', type: 'string' },
    { key: 'previous_emails', label: 'On Call Before: E-mails', type: 'string' },
    { key: 'previous_count', label: 'On Call Before: Count', type: 'number' },
    { key: 'current', label: 'On Call Now', type: 'array', spec: onCallUserOutput },
    { key: 'previous', label: 'On Call Before', type: 'array', spec: onCallUserOutput },
  ],
  sample: {
    id: 'evt_0001',
    type: 'oncall.changed',
    occurred_at: '2026-11-02T09:00:00.000Z',
    team: { id: 'team_platform', name: 'Platform' },
    previous: [{ id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', imageurl: 'https://images.acme.example/alan.png' }],
    current: [{ id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: null }],
    event_type: 'oncall.changed',
    changed_at: '2026-11-02T09:00:00.000Z',
    team_id: 'team_platform',
    team_name: 'Platform',
    current_names: 'Edsger Dijkstra',
    current_emails: 'edsger@acme.example',
    current_count: 1,
    previous_names: 'Alan Turing',
    previous_emails: 'alan@acme.example',
    previous_count: 1,
  },
};
