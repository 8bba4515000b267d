import { z } from 'zod';
import { email, idString, phoneNumber, settableRole } from './primitives.ts';

/** A directory entry as the service answers it (assumption `directory-entry`): lenient, unknown fields kept. */
export const directoryEntry = z.looseObject({
  id: idString.optional(),
  email: z.string().optional(),
  name: z.string().optional(),
  phone: z.string().nullable().optional(),
  role: z.string().optional(),
  imageurl: z.string().nullable().optional(),
});
export type DirectoryEntry = z.output<typeof directoryEntry>;

export const directoryLookupInput = z.object({ email });

/** `POST /o/oncalluser` (assumption `directory-upsert`). */
export const directoryUpsertInput = z.object({
  email,
  name: z.string().trim().min(1, 'is required').max(200, 'is longer than 200 characters'),
  phone: phoneNumber.optional(),
  role: settableRole.optional(),
});

/** `POST /o/oncalluser/phone` (assumption `directory-phone-role-bodies`). */
export const directoryPhoneInput = z.object({ email, phone: phoneNumber });

/** `POST /o/oncalluser/role` (assumption `directory-phone-role-bodies`). */
export const directoryRoleInput = z.object({ email, role: settableRole });

/** `DELETE /o/oncalluser` answer (assumption `directory-remove`). */
export const directoryRemoval = z.looseObject({
  email: z.string().optional(),
  removed: z.boolean().optional(),
});
export type DirectoryRemoval = z.output<typeof directoryRemoval>;
