import * as z from 'zod/mini';
import { idString, maybeText, requiredText, teamName } from './primitives.ts';

/** Severities offered as choices; any other label is sent as given (assumption `severity-values`). */
export const suggestedSeverities = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;

/** Body of `POST /o/incident` (assumptions `incident-fields`, `severity-values`). */
export const incidentInput = z.object({
  id: z.optional(requiredText(200, 'must not be empty; leave it out to create a new incident')),
  title: requiredText(255),
  severity: z.optional(requiredText(32, 'must not be empty')),
  description: z.optional(z.string().check(z.maxLength(10_000, 'is longer than 10000 characters'))),
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
