import * as z from 'zod/mini';
import { idString } from './primitives.ts';

/** A team as `GET /o/zapier/allteams` returns it (documented). Unknown fields are kept. */
export const team = z.looseObject({
  id: idString,
  name: z.string(),
});
export type Team = z.output<typeof team>;
