import * as z from 'zod/mini';
import { email, idString, maybeText, phoneNumber, requiredText, settableRole } from './primitives.ts';
import { LONGEST } from './text-limits.ts';

/** A directory entry as the service answers it (assumption `directory-entry`): lenient, unknown fields kept. */
export const directoryEntry = z.looseObject({
  id: z.optional(idString),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  phone: maybeText,
  role: z.optional(z.string()),
  imageurl: maybeText,
});
export type DirectoryEntry = z.output<typeof directoryEntry>;

export const directoryLookupInput = z.object({ email });

/** `POST /o/oncalluser` (assumption `directory-upsert`). */
export const directoryUpsertInput = z.object({
  email,
  name: requiredText(LONGEST.personName),
  phone: z.optional(phoneNumber),
  role: z.optional(settableRole),
});

/** `POST /o/oncalluser/phone` (assumption `directory-phone-role-bodies`). */
export const directoryPhoneInput = z.object({ email, phone: phoneNumber });

/** `POST /o/oncalluser/role` (assumption `directory-phone-role-bodies`). */
export const directoryRoleInput = z.object({ email, role: settableRole });

/** `DELETE /o/oncalluser` answer (assumption `directory-remove`). */
export const directoryRemoval = z.looseObject({
  email: z.optional(z.string()),
  removed: z.optional(z.boolean()),
});
export type DirectoryRemoval = z.output<typeof directoryRemoval>;
