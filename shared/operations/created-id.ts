import { holdsSecret, redactDeep } from '../redact.ts';

/**
 * "The status is the service's word" (assumption `created-id`): a create answered 2xx was done,
 * whatever the body. Its id is read where the service put it, by one search, and where none can
 * be read the create still succeeds: the id is empty, the answer is passed on as it came, and a
 * note says so. Calling such a create a failure would have users (and Zapier's Autoreplay) send
 * it again and open the incident twice, and would skip the steps after it.
 *
 * The search: the first of these that is present (not null, not empty text) is the candidate,
 * and it is the id if it is text that is not blank, or a number:
 * 1. the top level: `id`, then `<noun>_id`, then `<noun>Id`;
 * 2. one wrapping object, `data`, `result` or `<noun>` in that order: the same three fields in it;
 * 3. for a list, its first element, as 1 and 2.
 * Without an id so found, the `Location` header's last path segment (query and fragment left
 * out, percent-decoded), if it is not blank.
 * Applied by the client to the endpoints the catalog marks `createsUnless`; the Make generator
 * writes the same search and `usableId`'s checks in IML (make-app/generator/write-answer-iml.ts),
 * which finds the key in fewer forms (iml-key.ts `holdsKey`).
 */

/** The wrapping objects the search looks into, after the top level. */
export const idWrappers = (noun: string): readonly string[] => ['data', 'result', noun.toLowerCase()];

/** The fields that name the id, in the order the search reads them. */
export const idFields = (noun: string): readonly string[] => {
  const lower = noun.toLowerCase();
  return ['id', `${lower}_id`, `${lower}Id`];
};

/**
 * The longest id taken: ids are short handles (`inc_123`, a UUID); a megabyte `Location` or
 * `id` is no id a next step can use, and would go whole into outputs, logs and a model's context.
 */
export const MAX_ID_CHARS = 256;

/**
 * Characters no id holds: controls (a newline forges a line in a log, and on a runner a workflow
 * command; ESC drives a terminal), bidi controls and line separators. Service text, and a
 * percent-decoded `Location` segment can carry any of them. The controls are Unicode's Cc,
 * U+0000 to U+001F and U+007F to U+009F, written as ranges so that Make's IML, whose patterns
 * take no `u` flag, reads the same class (make-app/generator/write-answer-iml.ts).
 */
export const NOT_IN_AN_ID_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';
const NOT_IN_AN_ID = new RegExp(NOT_IN_AN_ID_CLASS);

/**
 * An id a next step can use, as text: text that is not blank (trimmed), or a finite number (an
 * integer only as long as JSON.parse kept it exact);
 * and neither longer than `MAX_ID_CHARS`, nor holding a control character, nor the key in any form
 * `redact` knows (a service or a hop that echoes the header back must not have it passed on as the id).
 */
export function usableId(value: unknown, secrets: readonly (string | undefined)[] = []): string | undefined {
  // JSON.parse rounds an integer past 2^53 (12345678901234567891 reads as ...7000): that would be
  // another incident's id, so such a number is no id, rather than the wrong one.
  if (typeof value === 'number') return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  if (id === '' || id.length > MAX_ID_CHARS || NOT_IN_AN_ID.test(id) || holdsSecret(id, secrets)) return undefined;
  return id;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields the search reads in a record, in order: its own, then each wrapper's. */
const candidatePaths = (noun: string): readonly (readonly string[])[] => [
  ...idFields(noun).map((field) => [field]),
  ...idWrappers(noun).flatMap((wrapper) => idFields(noun).map((field) => [wrapper, field])),
];

function read(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const name of path) current = isRecord(current) && Object.hasOwn(current, name) ? current[name] : undefined;
  return current;
}

/** The first candidate present: not null, undefined or empty text (what Make's `ifempty` skips). */
function candidateOf(record: unknown, noun: string): unknown {
  for (const path of candidatePaths(noun)) {
    const value = read(record, path);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** A `Location` longer than this names no id (an id is at most `MAX_ID_CHARS`, escaped three times that). */
export const MAX_LOCATION_CHARS = 8 * 1024;

/**
 * The id a `Location` header names: its last path segment (a query or fragment left out),
 * percent-decoded. Untrusted text, like any other part of the answer.
 */
export function locationId(location: string | undefined, secrets: readonly (string | undefined)[] = []): string | undefined {
  // Longer than any id's URL could be: not split or decoded at all.
  if (location === undefined || location.length > MAX_LOCATION_CHARS) return undefined;
  const path = location.split(/[?#]/, 1)[0] ?? '';
  const segment = path.split('/').at(-1) ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A broken escape is kept as it came rather than losing the id.
  }
  return usableId(decoded, secrets);
}

/** The id of a create's answer by the search above, or undefined. */
export function createdIdIn(answer: unknown, noun: string, location?: string, secrets: readonly (string | undefined)[] = []): string | undefined {
  const record = Array.isArray(answer) ? answer[0] : answer;
  return usableId(candidateOf(record, noun), secrets) ?? locationId(location, secrets);
}

/** What a create's answer said, as the client read it. */
export interface CreateAnswer {
  /** The parsed JSON, or the raw text (already redacted and bounded) when the body was not JSON. */
  readonly value: unknown;
  readonly status: number;
  readonly location?: string | undefined;
  /** The id the input named (an update): it stands when the answer names none. */
  readonly givenId?: string | undefined;
  /** What goes on instead of `value` (an excerpt of an answer too big to pass on whole); the id is read in `value`. */
  readonly passedOn?: Record<string, unknown>;
  /** The key, in each form it was sent: never read as the id, and taken out of what is passed on. */
  readonly secrets?: readonly (string | undefined)[];
}

/** The note on a create whose answer gave no id that could be read; one wording for every surface. */
export const noIdNote = (noun: string, status: number | string) =>
  `The service answered HTTP ${status}, so the ${noun.toLowerCase()} was created, but it gave no id that could be read; its answer is passed on as it came.`;

/**
 * The result of a create answered 2xx, for every surface: a JSON object answer with its fields
 * kept, any other answer (or one too big to pass on whole) under `answer`; `id` the id found (else the one given, else empty); and
 * `note`, which says so where no id came.
 */
export function createdResult(noun: string, { value, status, location, givenId, passedOn, secrets = [] }: CreateAnswer): Record<string, unknown> {
  const found = createdIdIn(value, noun, location, secrets) ?? usableId(givenId);
  // The answer is service text: a body that echoes the key has it taken out before it is passed on.
  const shown = redactDeep(value, secrets);
  const kept = passedOn ?? (isRecord(shown) ? shown : shown === undefined || shown === '' ? {} : { answer: shown });
  // `note` is always there, so a no-code step can map it: empty (or the service's own) with an id.
  return { ...kept, id: found ?? '', note: found === undefined ? noIdNote(noun, status) : (kept.note ?? '') };
}
