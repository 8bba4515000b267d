import { idFields, idWrappers, MAX_ID_CHARS, MAX_LOCATION_CHARS, NOT_IN_AN_ID_CLASS, noIdNote } from '../../shared/operations/created-id.ts';
import { MAX_PASSED_ON_CHARS, MAX_WHOLE_ANSWER_CHARS } from '../../shared/http/response.ts';
import { imlString, isList, isObject } from './iml-expressions.ts';
import { holdsKey, keySafeText, SENT_KEY } from './iml-key.ts';
import { validDirective } from './response-directives.ts';

/**
 * "The status is the service's word" (assumption `created-id`, shared/operations/created-id.ts)
 * in IML, since Make cannot run the shared code: an action answered 2xx succeeds whatever its
 * body (`valid` is only the status), a JSON object is spread into the bundle and anything else
 * is kept as `answer`; a create's id is read by the same search, written here as `ifempty`
 * chains, and taken only where `usableId` would take it (not blank, at most 256 characters, no
 * control or bidi character, no number JSON.parse rounded, not the key); with none the bundle
 * says so in `note`. One check IML can only approach: the key is found as it is or URL-encoded,
 * by its first or last 8 characters, not in the base64, hex or form-encoded forms shared/redact.ts
 * knows (IML has no such encodings of a part of a text; the conformance table's known failure). A 4xx or 5xx stays an error: Make decides
 * those before `valid` (Custom apps › Error handling).
 */

/** The fields the search reads in one record (`body` or `body[1]`), in the shared order. */
function candidatePaths(record: string, noun: string): string[] {
  const own = idFields(noun).map((field) => `${record}.${field}`);
  const wrapped = idWrappers(noun).flatMap((wrapper) => idFields(noun).map((field) => `${record}.${wrapper}.${field}`));
  return [...own, ...wrapped];
}

/** The first path that is present (`ifempty` skips undefined, null and empty text, as the shared search does). */
const firstPresent = (paths: readonly string[]): string => paths.slice(0, -1).reduceRight((inner, path) => `ifempty(${path}, ${inner})`, paths.at(-1)!);

const CANDIDATE = 'temp.idCandidate';
const LOCATION_ID = 'temp.locationId';
const PASSED_ON = 'temp.passedOn';
/** Whether the answer is small enough to pass on whole (the shared `MAX_WHOLE_ANSWER_CHARS`). */
const WHOLE = 'temp.whole';

/**
 * Not blank text, or a number (`usableId`): IML has no type test, so a list or object is told by
 * the JSON `toString` writes of it, and true and false by strict equality.
 */
const usable = (value: string) =>
  `length(trim(toString(ifempty(${value}, '')))) >= 1 && ${value} != true && ${value} != false && !(${isObject(value)}) && !(${isList(value)})`;

/**
 * The rest of `usableId`, on an id's trimmed text: at most `MAX_ID_CHARS`, no control or bidi
 * character (the shared class, as a `g` pattern: taking every such character out leaves the text
 * as it was), and, for an id read from the answer, not the key (`holdsKey`, which finds fewer of
 * its forms than the shared rule: see there).
 */
const safeIdText = (text: string, { key }: { key: boolean }) =>
  `length(${text}) >= 1 && length(${text}) <= ${MAX_ID_CHARS} && replace(${text}, /${NOT_IN_AN_ID_CLASS}/g, '') == ${text}` +
  (key ? ` && !(${holdsKey(text)})` : '');

/**
 * A number JSON.parse kept exact (`usableId`): an integer past 2^53 has been rounded, to another
 * incident's id. A value that is not its own text is a number here (`usable` has ruled out the
 * rest), since IML's `!=` does not convert types ("All equality operations are strict",
 * developers.make.com/custom-apps-documentation/block-elements/iml). Any number beyond
 * ±(2^53 - 1) is such an integer, and Infinity (an exponent too big) is past it too.
 */
const exactNumber = (value: string) => `!(toString(${value}) != ${value} && (${value} > ${Number.MAX_SAFE_INTEGER} || ${value} < -${Number.MAX_SAFE_INTEGER}))`;

/**
 * `response.temp` of a write: the id's candidate (the top level, else a list's first element),
 * the `Location` header's last path segment (query and fragment left out, decoded), the answer
 * as text made safe to pass on (the key taken out, cut to the shared bound), and whether it is
 * small enough to pass on whole.
 */
function writeTemp(noun: string | undefined): Record<string, string> {
  const passedOn = {
    passedOn: `{{${keySafeText('body', SENT_KEY, MAX_PASSED_ON_CHARS)}}}`,
    whole: `{{length(toString(body)) <= ${MAX_WHOLE_ANSWER_CHARS}}}`,
  };
  if (noun === undefined) return passedOn;
  const location = "toString(ifempty(headers.location, ''))";
  return {
    idCandidate: `{{${firstPresent([...candidatePaths('body', noun), ...candidatePaths('body[1]', noun)])}}}`,
    // A Location longer than any id's URL could be is not split or decoded at all (`locationId`).
    locationId: `{{if(length(${location}) <= ${MAX_LOCATION_CHARS}, trim(decodeURL(last(split(first(split(first(split(${location}, '#')), '?')), '/')))), '')}}`,
    ...passedOn,
  };
}

/**
 * The id as the shared search gives it (`createdResult`): the candidate, else the Location's,
 * else the id the input named, each only where `usableId` takes it.
 */
function idExpression(givenId: string | undefined): string {
  const given = givenId === undefined ? undefined : `trim(toString(ifempty(${givenId}, '')))`;
  const fallback = given === undefined ? "''" : `if(${safeIdText(given, { key: false })}, ${given}, '')`;
  const location = `if(${safeIdText(LOCATION_ID, { key: true })}, ${LOCATION_ID}, ${fallback})`;
  const candidate = `trim(toString(${CANDIDATE}))`;
  return `if(${usable(CANDIDATE)} && ${exactNumber(CANDIDATE)} && ${safeIdText(candidate, { key: true })}, ${candidate}, ${location})`;
}

/** The shared note, with the status Make read. */
function noteExpression(noun: string): string {
  const MARK = '\u0000status\u0000';
  const [before, after] = noIdNote(noun, MARK).split(MARK) as [string, string];
  return `${imlString(before)} + statusCode + ${imlString(after)}`;
}

/**
 * The response of an action's write. `created`: the noun of the record whose id the output
 * names, and the parameter holding the id the input gave (an update), if any.
 */
export function writeResponse(created?: { noun: string; givenId?: string }): Record<string, unknown> {
  const kept = {
    // Before the spread, so a service's own `answer` field wins over this one's absence.
    answer: `{{if(${WHOLE} && ${isObject('body')}, undefined, if(${WHOLE} && ${isList('body')}, body, if(length(toString(body)) == 0, undefined, ${PASSED_ON})))}}`,
    '{{...}}': `{{if(${WHOLE} && ${isObject('body')}, body, undefined)}}`,
  };
  const output: Record<string, string> = { ...kept };
  if (created) {
    const id = idExpression(created.givenId);
    output.id = `{{${id}}}`;
    output.note = `{{if(${id} == '', ${noteExpression(created.noun)}, ifempty(body.note, ''))}}`;
  }
  return { temp: writeTemp(created?.noun), valid: validDirective({ json: false }), output };
}
