import type { ActionOperation } from './types.ts';
import { incidentStatusField, severityField, teamField } from './fields.ts';

export const createIncident: ActionOperation = {
  kind: 'action',
  key: 'create_incident',
  makeName: 'createIncident',
  endpoint: 'createOrUpdateIncident',
  noun: 'Incident',
  label: 'Create or Update Incident',
  makeLabel: 'Create or update an incident',
  description: 'Opens a new incident, or updates one you created before when you give its ID (for example to resolve it when the deploy recovers).',
  inputFields: [
    { key: 'title', label: 'Title', type: 'string', required: true, example: 'Checkout latency above 2 s', help: 'What is wrong, in a few words (up to 255 characters).' },
    severityField,
    { key: 'description', label: 'Description', type: 'text', required: false, help: 'Details for the people on call: what failed, links to logs or dashboards.' },
    teamField(false, 'The team whose on-call people should handle it. Leave empty for the service\'s default routing.'),
    incidentStatusField,
    { key: 'id', label: 'Incident ID', type: 'string', required: false, example: 'inc_0001', help: 'To update an incident instead of creating one: the ID this step returned when it created the incident. Leave empty to create a new incident.' },
  ],
  outputFields: [
    { key: 'id', label: 'Incident ID', type: 'string' },
    { key: 'title', label: 'Title', type: 'string' },
    { key: 'severity', label: 'Severity', type: 'string' },
    { key: 'status', label: 'Status', type: 'string' },
    { key: 'description', label: 'Description', type: 'string' },
    { key: 'teamname', label: 'Team', type: 'string' },
    { key: 'created_at', label: 'Created At', type: 'datetime' },
    { key: 'updated_at', label: 'Updated At', type: 'datetime' },
  ],
  sample: {
    id: 'inc_0001',
    title: 'Checkout latency above 2 s',
    severity: 'P2',
    status: 'triggered',
    description: 'p95 latency of /checkout has been above 2 s for 10 minutes.',
    teamname: 'Platform',
    created_at: '2026-11-02T08:00:00.000Z',
    updated_at: '2026-11-02T08:00:00.000Z',
  },
};
