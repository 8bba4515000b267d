import type { HookOperation } from './types.ts';
import { derivedOutputFields, shapeItem, type ItemShape } from './item-shape.ts';
import { GROUPS } from './groups.ts';
import { onCallUserOutput, peopleFields, teamOutput } from './outputs.ts';
import { teamField } from './fields.ts';

const NOW = 'On Call Now';
const BEFORE = 'On Call Before';

/**
 * The item keeps the whole payload (`spread`), so a field the service adds later reaches the
 * user, and adds flat fields a no-code user can map without line items. Each derived field is
 * named here only: the output fields and the sample are made from it. The payload's own keys
 * keep their names (`type`, `occurred_at`, `team`): a second name for the same value would show
 * the Zap builder two "Team ID" fields (Zapier labels the nested `team__id` by itself).
 */
const item: ItemShape = {
  spread: 'body',
  fields: {
    id: { path: 'body.id', label: 'Event ID' },
    type: { path: 'body.type', label: 'Event Type' },
    occurred_at: { path: 'body.occurred_at', label: 'Changed At', type: 'datetime' },
    ...peopleFields('body.current', 'current', NOW),
    ...peopleFields('body.previous', 'previous', BEFORE),
  },
};

/** A delivered payload (assumption `hook-payload`), as the service sends it. */
const samplePayload = {
  id: 'evt_0001',
  type: 'oncall.changed',
  occurred_at: '2026-11-02T09:00:00.000Z',
  team: { id: 'team_platform', name: 'Platform' },
  previous: [{ id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', imageurl: 'https://images.acme.example/alan.png' }],
  current: [{ id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: 'https://images.acme.example/edsger.png' }],
};

/** The instant trigger. */
export const onCallChanged: HookOperation = {
  kind: 'hook',
  id: 'onCallChanged',
  group: GROUPS.onCall,
  noun: 'On-Call Change',
  description:
    'Triggers when the people on call for a team change: a shift hands over, an override starts or ends, or someone leaves the rotation. A change delivered twice keeps its Event ID.',
  inputFields: [teamField(false, 'Only changes of this team. Leave empty for changes of every team.')],
  item,
  outputFields: [
    ...derivedOutputFields(item),
    { key: 'team', label: 'Team', type: 'object', spec: teamOutput },
    { key: 'current', label: NOW, type: 'array', spec: onCallUserOutput },
    { key: 'previous', label: BEFORE, type: 'array', spec: onCallUserOutput },
  ],
  sample: shapeItem(item, { body: samplePayload }),
};
