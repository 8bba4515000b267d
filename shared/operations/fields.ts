import { incidentStatuses, suggestedSeverities } from '../schemas/incident.ts';
import { PHONE_SEPARATORS_TEXT, settableRoles } from '../schemas/primitives.ts';
import type { InputField } from './types.ts';

/** Input fields used by more than one operation, described once. */

export const teamField = (required: boolean, help: string): InputField => ({
  key: 'teamname',
  label: 'Team',
  type: 'string',
  required,
  dynamic: 'team',
  help,
});

export const emailField = (help: string): InputField => ({
  key: 'email',
  label: 'E-mail',
  type: 'email',
  required: true,
  example: 'alex@example.com',
  help,
});

export const phoneField = (required: boolean): InputField => ({
  key: 'phone',
  label: 'Phone number',
  type: 'phone',
  required,
  example: '+14155550123',
  help: `In international format with the country code, e.g. +14155550123. ${PHONE_SEPARATORS_TEXT} are removed before sending.`,
});

const roleLabels: Record<(typeof settableRoles)[number], string> = { admin: 'Admin (org admin)', user: 'User' };
export const roleField = (required: boolean, help: string): InputField => ({
  key: 'role',
  label: 'Role',
  type: 'string',
  required,
  help,
  choices: settableRoles.map((value) => ({ value, label: roleLabels[value] })),
});

const severityLabels: Record<(typeof suggestedSeverities)[number], string> = {
  P1: 'P1 (critical)',
  P2: 'P2 (high)',
  P3: 'P3 (moderate)',
  P4: 'P4 (low)',
  P5: 'P5 (informational)',
};
export const severityField: InputField = {
  key: 'severity',
  label: 'Severity',
  type: 'string',
  required: false,
  customValueAllowed: true,
  choices: suggestedSeverities.map((value) => ({ value, label: severityLabels[value] })),
  help: "P1 (most urgent) to P5, or your organization's own label (up to 32 characters). Left empty, the service applies its default.",
};

const statusLabels: Record<(typeof incidentStatuses)[number], string> = { triggered: 'Triggered', acknowledged: 'Acknowledged', resolved: 'Resolved' };
export const incidentStatusField: InputField = {
  key: 'status',
  label: 'Status',
  type: 'string',
  required: false,
  choices: incidentStatuses.map((value) => ({ value, label: statusLabels[value] })),
  help: 'Set it to resolve or acknowledge an incident you update by its ID. Left empty, a new incident is triggered and an updated one keeps its status.',
};

/** Added to the help of a field whose choices are only suggestions, on both platforms. */
export const CUSTOM_VALUE_NOTE = 'You can also type or map another value.';

/** Said in the help of every org-admin-only operation, so nobody learns it from an error at 3 a.m. */
export const ADMIN_ONLY_NOTE =
  "Only an org admin can do this: the API key of this connection acts as the person who generated it, so it must be an org admin's key.";
