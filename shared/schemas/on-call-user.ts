import * as z from 'zod/mini';
import { idString } from './primitives.ts';

/** A person on call, as `GET /o/currentusers` returns it (documented). `imageurl` may be null. */
export const onCallUser = z.looseObject({
  id: idString,
  name: z.string(),
  email: z.string(),
  // Documented as "string or null"; a service that leaves it out is read as null.
  imageurl: z._default(z.nullable(z.string()), null),
});
export type OnCallUser = z.output<typeof onCallUser>;
