import * as z from 'zod/mini';
import { idString, maybeText, requiredText, teamName } from './primitives.ts';
import { LONGEST } from './text-limits.ts';

/** Severities offered as choices; any other label is sent as given (assumption `severity-values`). */
export const suggestedSeverities = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;

/** Body of `POST /o/incident` (assumptions `incident-fields`, `severity-values`). */
export const incidentInput = z.object({
  id: z.optional(requiredText(LONGEST.incidentId, 'must not be empty; leave it out to create a new incident')),
  title: requiredText(LONGEST.title),
  severity: z.optional(requiredText(LONGEST.severity, 'must not be empty')),
  description: z.optional(z.string().check(z.maxLength(LONGEST.description, `is longer than ${LONGEST.description} characters`))),
  teamname: z.optional(teamName),
  status: z.optional(z.enum(incidentStatuses, { error: `must be one of: ${incidentStatuses.join(', ')}` })),
});
export type IncidentInput = z.input<typeof incidentInput>;

/** The incident the service answers with (assumption `incident-response`): lenient, unknown fields kept. */
export const incident = z.looseObject({
  id: z.optional(idString),
  title: z.optional(z.string()),
  severity: z.optional(z.string()),
  status: z.optional(z.string()),
  description: maybeText,
  teamname: maybeText,
  created_at: z.optional(z.string()),
  updated_at: z.optional(z.string()),
});
export type Incident = z.output<typeof incident>;
