import * as z from 'zod/mini';

// zod's tree-shakeable API (`zod/mini`): the Zapier bundle carries only the checks used here.

/** Ids are strings in the spec; a service that sends numbers gets them as strings. */
export const idString = z.pipe(z.union([z.string(), z.number()]), z.transform(String));

/** Separators people type in phone numbers; removed before the E.164 check. */
const PHONE_SEPARATORS = /[\s().\-]/g;
export const E164 = /^\+[1-9]\d{6,14}$/;

export const phoneNumber = z.pipe(
  z.pipe(z.string(), z.transform((value: string) => value.replace(PHONE_SEPARATORS, ''))),
  z.string().check(z.regex(E164, 'must be in international format with country code, e.g. +14155550123')),
);

export const email = z.pipe(z.string().check(z.trim()), z.email('must be an e-mail address, e.g. alex@example.com'));

export const teamName = z.string().check(z.trim(), z.minLength(1, 'must name a team'), z.maxLength(200, 'is longer than 200 characters'));

/** Text that must not be empty, trimmed, at most `max` characters. */
export const requiredText = (max: number, empty = 'is required') =>
  z.string().check(z.trim(), z.minLength(1, empty), z.maxLength(max, `is longer than ${max} characters`));

/** A settable role. `owner` exists in responses but cannot be given through the API. */
export const settableRoles = ['admin', 'user'] as const;
export const settableRole = z.enum(settableRoles, { error: `must be one of: ${settableRoles.join(', ')}` });

/** Roles as the service may answer them: the known ones, or any other string passed on. */
export const knownRoles = ['owner', 'admin', 'user'] as const;

/** Optional text as the service may answer it: a string, null, or absent. */
export const maybeText = z.optional(z.nullable(z.string()));
