import { z } from 'zod';
import { idString, teamName } from './primitives.ts';

/** Severities offered as choices; any other label is sent as given (assumption `severity-values`). */
export const suggestedSeverities = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export const incidentStatuses = ['triggered', 'acknowledged', 'resolved'] as const;

/** Body of `POST /o/incident` (assumptions `incident-fields`, `severity-values`). */
export const incidentInput = z.object({
  id: z.string().trim().min(1, 'must not be empty; leave it out to create a new incident').optional(),
  title: z.string().trim().min(1, 'is required').max(255, 'is longer than 255 characters'),
  severity: z.string().trim().min(1, 'must not be empty').max(32, 'is longer than 32 characters').optional(),
  description: z.string().max(10_000, 'is longer than 10000 characters').optional(),
  teamname: teamName.optional(),
  status: z.enum(incidentStatuses, { error: `must be one of: ${incidentStatuses.join(', ')}` }).optional(),
});
export type IncidentInput = z.input<typeof incidentInput>;

/** The incident the service answers with (assumption `incident-response`): lenient, unknown fields kept. */
export const incident = z.looseObject({
  id: idString.optional(),
  title: z.string().optional(),
  severity: z.string().optional(),
  status: z.string().optional(),
  description: z.string().nullable().optional(),
  teamname: z.string().nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Incident = z.output<typeof incident>;
