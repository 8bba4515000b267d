import { idFields, idWrappers, noIdNote } from '../../shared/operations/created-id.ts';
import { MAX_PASSED_ON_CHARS, MAX_WHOLE_ANSWER_CHARS } from '../../shared/http/response.ts';
import { imlString, isList, isObject } from './iml-expressions.ts';
import { keySafeText, SENT_KEY } from './iml-key.ts';
import { validDirective } from './response-directives.ts';

/**
 * "The status is the service's word" (assumption `created-id`, shared/operations/created-id.ts)
 * in IML, since Make cannot run the shared code: an action answered 2xx succeeds whatever its
 * body (`valid` is only the status), a JSON object is spread into the bundle and anything else
 * is kept as `answer`; a create's id is read by the same search, written here as `ifempty`
 * chains, and with none the bundle says so in `note`. A 4xx or 5xx stays an error: Make decides
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
    locationId: `{{trim(decodeURL(last(split(first(split(first(split(${location}, '#')), '?')), '/'))))}}`,
    ...passedOn,
  };
}

/** The id as the shared search gives it: the candidate, else the Location's, else the id the input named. */
function idExpression(givenId: string | undefined): string {
  const fallback = givenId === undefined ? LOCATION_ID : `ifempty(${LOCATION_ID}, trim(toString(ifempty(${givenId}, ''))))`;
  return `if(${usable(CANDIDATE)}, trim(toString(${CANDIDATE})), ${fallback})`;
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
