import { z } from 'zod';

/** Ids are strings in the spec; a service that sends numbers gets them as strings. */
export const idString = z.union([z.string(), z.number()]).transform(String);

/** Separators people type in phone numbers; removed before the E.164 check. */
const PHONE_SEPARATORS = /[\s().\-]/g;
export const E164 = /^\+[1-9]\d{6,14}$/;

export const phoneNumber = z
  .string()
  .transform((value) => value.replace(PHONE_SEPARATORS, ''))
  .pipe(z.string().regex(E164, 'must be in international format with country code, e.g. +14155550123'));

export const email = z.string().trim().pipe(z.email('must be an e-mail address, e.g. alex@example.com'));

export const teamName = z.string().trim().min(1, 'must name a team').max(200, 'is longer than 200 characters');

/** A settable role. `owner` exists in responses but cannot be given through the API. */
export const settableRoles = ['admin', 'user'] as const;
export const settableRole = z.enum(settableRoles, { error: `must be one of: ${settableRoles.join(', ')}` });

/** Roles as the service may answer them: the known ones, or any other string passed on. */
export const knownRoles = ['owner', 'admin', 'user'] as const;
