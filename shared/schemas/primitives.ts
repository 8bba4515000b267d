import * as z from 'zod/mini';
import { EMAIL_ADDRESS_PROBLEM, isEmailAddress } from './email-address.ts';
import { LONGEST } from './text-limits.ts';

// zod's tree-shakeable API (`zod/mini`): the Zapier bundle carries only the checks used here.

/**
 * Ids are strings in the spec; a service that sends numbers gets them as strings. An integer past
 * 2^53 is not one: JSON.parse has already rounded it (12345678901234567891 reads as ...7000),
 * and its text would name another record, which a next step would then update.
 */
export const idString = z.pipe(
  z.union([z.string(), z.number().check(z.refine((n) => !Number.isInteger(n) || Number.isSafeInteger(n), 'an integer too big to be read exactly'))]),
  z.transform(String),
);

/**
 * Separators people type in phone numbers, removed before the E.164 check (assumption
 * `phone-format`), each with the word the help text uses for it. The one list: the shared
 * schema, Make's IML and the field's help are all made from it.
 */
export const PHONE_SEPARATORS = { ' ': 'spaces', '.': 'dots', '-': 'dashes', '(': 'brackets', ')': 'brackets' } as const;
const separatorPattern = new RegExp(
  `[${Object.keys(PHONE_SEPARATORS)
    .map((separator) => `\\${separator}`)
    .join('')}]`,
  'g',
);
const words = [...new Set(Object.values(PHONE_SEPARATORS))];
/** "Spaces, dots, dashes and brackets", from the list. */
export const PHONE_SEPARATORS_TEXT = `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`.replace(/^./, (first) => first.toUpperCase());
export const E164 = /^\+[1-9]\d{6,14}$/;

export const phoneNumber = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value: string) => value.replace(separatorPattern, '')),
  ),
  z.string().check(z.regex(E164, 'must be in international format with country code, e.g. +14155550123')),
);

/** An e-mail address by the one rule of every surface (email-address.ts), trimmed. */
export const email = z.string().check(z.trim(), z.refine(isEmailAddress, EMAIL_ADDRESS_PROBLEM));

/** Text that must not be empty, trimmed, at most `max` characters. */
export const requiredText = (max: number, empty = 'is required') =>
  z.string().check(z.trim(), z.minLength(1, empty), z.maxLength(max, `is longer than ${max} characters`));

export const teamName = requiredText(LONGEST.teamName, 'must name a team');

/** A settable role. `owner` exists in responses but cannot be given through the API. */
export const settableRoles = ['admin', 'user'] as const;
export const settableRole = z.enum(settableRoles, { error: `must be one of: ${settableRoles.join(', ')}` });

/** Roles as the service may answer them: the known ones, or any other string passed on. */
export const knownRoles = ['owner', 'admin', 'user'] as const;

/** Optional text as the service may answer it: a string, null, or absent. */
export const maybeText = z.optional(z.nullable(z.string()));
