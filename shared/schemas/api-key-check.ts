import * as z from 'zod/mini';
import { idString } from './primitives.ts';

/** `GET /o/test/apikey` (assumption `apikey-check`): read leniently, used only for labels. */
export const apiKeyCheck = z.looseObject({
  valid: z.optional(z.boolean()),
  user: z.optional(z.looseObject({ id: z.optional(idString), name: z.optional(z.string()), email: z.optional(z.string()), role: z.optional(z.string()) })),
  organization: z.optional(z.looseObject({ id: z.optional(idString), name: z.optional(z.string()) })),
});
export type ApiKeyCheck = z.output<typeof apiKeyCheck>;
