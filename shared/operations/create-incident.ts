import type { ActionOperation, InputField, OutputField } from './types.ts';
import { GROUPS } from './groups.ts';
import { stepOf } from './step-mentions.ts';
import { incidentStatusField, severityField, teamField } from './fields.ts';

/**
 * Incidents: one endpoint (`POST /o/incident`) creates without an `id` and updates with one
 * (assumption `incident-fields`); each platform gets two actions, one job each.
 */

const titleField: InputField = {
  key: 'title',
  label: 'Title',
  type: 'string',
  required: true,
  example: 'Checkout latency above 2 s',
  help: 'What is wrong, in a few words (up to 255 characters).',
};
const descriptionField: InputField = {
  key: 'description',
  label: 'Description',
  type: 'text',
  required: false,
  help: 'Details for the people on call: what failed, links to logs or dashboards.',
};

const incidentOutput: readonly OutputField[] = [
  { key: 'id', label: 'Incident ID', type: 'string' },
  { key: 'title', label: 'Title', type: 'string' },
  { key: 'severity', label: 'Severity', type: 'string' },
  { key: 'status', label: 'Status', type: 'string' },
  { key: 'description', label: 'Description', type: 'string' },
  { key: 'teamname', label: 'Team', type: 'string' },
  { key: 'created_at', label: 'Created At', type: 'datetime' },
  { key: 'updated_at', label: 'Updated At', type: 'datetime' },
  // Where the service gave no readable id (assumption `created-id`), says so beside the empty id.
  { key: 'note', label: 'Note', type: 'string' },
];

const incidentSample = {
  id: 'inc_0001',
  title: 'Checkout latency above 2 s',
  severity: 'P2',
  status: 'triggered',
  description: 'p95 latency of /checkout has been above 2 s for 10 minutes.',
  teamname: 'Platform',
  created_at: '2026-11-02T08:00:00.000Z',
  updated_at: '2026-11-02T08:00:00.000Z',
  // Says so when the service gave no readable id; the sample is a create that got one.
  note: '',
};

export const createIncident: ActionOperation = {
  kind: 'action',
  id: 'createIncident',
  endpoint: 'createOrUpdateIncident',
  effect: 'create',
  summary: 'Create an incident',
  group: GROUPS.incidents,
  noun: 'Incident',
  description: 'Creates a new incident and pages the people on call. Keep its Incident ID to update or resolve it later.',
  inputFields: [
    titleField,
    severityField,
    descriptionField,
    teamField(false, "The team whose on-call people should handle it. Leave empty for the service's default routing."),
    { ...incidentStatusField, help: 'Left empty, the new incident is triggered.' },
  ],
  outputFields: incidentOutput,
  sample: incidentSample,
};

/**
 * The service has no endpoint that lists incidents, so the ID cannot be a dropdown (integration
 * check D004 asks for one where it can be): the help says where the ID comes from instead.
 */
export const INCIDENT_ID_HELP = `The ID of the incident to change: map the Incident ID from ${stepOf('createIncident')} (or from the system that created it). Pagerly has no list of incidents to pick from.`;

export const updateIncident: ActionOperation = {
  kind: 'action',
  id: 'updateIncident',
  endpoint: 'createOrUpdateIncident',
  effect: 'update',
  summary: 'Update an incident by its id',
  group: GROUPS.incidents,
  noun: 'Incident',
  description: 'Updates an incident by its ID, for example to resolve it when the deploy recovers. Fields left empty keep their values.',
  inputFields: [
    { key: 'id', label: 'Incident ID', type: 'string', required: true, example: 'inc_0001', help: INCIDENT_ID_HELP },
    {
      ...titleField,
      help: `The incident's title (up to 255 characters); the service needs it on every update, so map the title from ${stepOf('createIncident')} to keep it.`,
    },
    { ...severityField, help: "P1 (most urgent) to P5, or your organization's own label (up to 32 characters). Left empty, it keeps its severity." },
    descriptionField,
    teamField(false, 'Route the incident to this team instead. Leave empty to keep its team.'),
    { ...incidentStatusField, help: 'Acknowledged or Resolved to move the incident on. Left empty, it keeps its status.' },
  ],
  outputFields: incidentOutput,
  sample: { ...incidentSample, status: 'resolved', updated_at: '2026-11-02T08:40:00.000Z' },
};
