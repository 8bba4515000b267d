import { z } from 'zod';
import { idString } from './primitives.ts';

/** `GET /o/test/apikey` (assumption `apikey-check`): read leniently, used only for labels. */
export const apiKeyCheck = z.looseObject({
  valid: z.boolean().optional(),
  user: z.looseObject({ id: idString.optional(), name: z.string().optional(), email: z.string().optional(), role: z.string().optional() }).optional(),
  organization: z.looseObject({ id: idString.optional(), name: z.string().optional() }).optional(),
});
export type ApiKeyCheck = z.output<typeof apiKeyCheck>;
