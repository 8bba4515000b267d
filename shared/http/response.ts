import * as z from 'zod/mini';
import { endpoints, type EndpointKey, type Endpoints } from '../catalog/endpoints.ts';
import type { OutputOf } from '../catalog/endpoint.ts';
import {
  AuthenticationError,
  InvalidInputError,
  InvalidResponseError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestError,
  ServerError,
  type PagerlyError,
} from '../errors.ts';
import { excerpt, redact } from '../redact.ts';
import { errorText } from '../schemas/error-body.ts';
import { fieldProblems } from '../validation.ts';
import { mayHaveAppliedAdvice, statusMayHaveApplied } from './failure.ts';
import { MAX_JSON_DEPTH, parseJsonAnswer, type ParsedJson } from './json.ts';
import { redirectError } from './redirect.ts';
import { retryAfterSeconds, retryWhen } from './retry-after.ts';
import type { HttpResponse } from './types.ts';

/** Assumption `auth-error`: the documented invalid-key answer is a 400 whose text names the key. */
const NAMES_THE_KEY = /api[\s_-]?key/i;

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name] ?? response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Turns a response into the endpoint's typed output, or throws the one error that fits.
 * `secrets` (the API key) are removed from every text that goes into an error.
 */
export function interpretResponse<K extends EndpointKey>(
  key: K,
  response: HttpResponse,
  secrets: readonly (string | undefined)[] = [],
  summary: string = endpoints[key].summary,
): OutputOf<Endpoints[K]> {
  if (response.status < 200 || response.status >= 300) throw errorFor(key, response, secrets, summary);
  const endpoint = endpoints[key];
  // Assumption `lenient-responses`: an empty success body (204, or a bare 200) reads as {}.
  const parsed = response.body.trim() === '' ? { ok: true as const, value: {} } : parseJsonAnswer(response.body);
  if (endpoint.successWhateverTheBody) {
    const read = parsed.ok ? z.safeParse(endpoint.output, parsed.value) : undefined;
    return (read?.success ? read.data : writeAnswer(parsed, response.body, secrets)) as OutputOf<Endpoints[K]>;
  }
  if (endpoint.outputShape === 'status-only') {
    // The status is the answer (a key check's `200 text/plain "API Key is valid"` included). A
    // JSON answer is kept as the assumed shapes are; text that is not JSON is not read at all.
    const value = parsed.ok ? parsed.value : {};
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { value };
    const result = z.safeParse(endpoint.output, object);
    return (result.success ? result.data : object) as OutputOf<Endpoints[K]>;
  }
  if (!parsed.ok && parsed.reason === 'depth') {
    throw new InvalidResponseError(
      `The service's answer to "${summary.toLowerCase()}" (HTTP ${response.status}) is JSON nested deeper than ${MAX_JSON_DEPTH} levels, which no answer of the API is; it was not read. Check the base URL points at the API.`,
      { endpoint: key, status: response.status },
    );
  }
  if (!parsed.ok) {
    const type = redact(header(response, 'content-type') ?? 'no content type', secrets);
    throw new InvalidResponseError(
      `The service answered HTTP ${response.status} with a body that is not JSON (${type}): "${excerpt(response.body, secrets)}". Check the base URL points at the API.`,
      { endpoint: key, status: response.status },
    );
  }
  const result = z.safeParse(endpoint.output, parsed.value);
  if (result.success) return result.data as OutputOf<Endpoints[K]>;
  if (endpoint.outputShape === 'assumed') {
    // The spec does not show this shape: what came is passed on whole rather than lost.
    const value = parsed.value;
    return (value !== null && typeof value === 'object' ? value : { value }) as OutputOf<Endpoints[K]>;
  }
  const problems = fieldProblems(result.error, parsed.value)
    .slice(0, 3)
    .map((p) => `${p.field || 'body'} ${p.problem}`)
    .join('; ');
  throw new InvalidResponseError(
    `The service's answer to "${summary.toLowerCase()}" is not of the documented shape (${problems}): "${excerpt(response.body, secrets)}".`,
    { endpoint: key, status: response.status },
  );
}

/**
 * The most of a write's answer that could not be read, or was too big, passed on as text: a raw
 * excerpt for the user to read, never megabytes into a step's output or a model's context.
 */
export const MAX_PASSED_ON_CHARS = 2_000;

/** The biggest write answer passed on whole, as its JSON; a bigger one goes on as an excerpt of its text. */
export const MAX_WHOLE_ANSWER_CHARS = 100_000;

/**
 * A write's answer as text to pass on: the key taken out, then cut to `MAX_PASSED_ON_CHARS`, with
 * no mark added, as Make's IML cuts it (`substring`), so every surface passes on the same text.
 */
export function passedOnText(body: string, secrets: readonly (string | undefined)[]): string {
  return redact(body, secrets).slice(0, MAX_PASSED_ON_CHARS);
}

/**
 * A write answered 2xx (assumption `created-id`: the status is the service's word): it was done,
 * whatever the body. A JSON object or list is passed on as it came (the client puts a list under
 * `answer`, after a create's id is read in it); anything else (a bare value, text that is not
 * JSON, JSON cut off or nested too deep to read) goes under `answer`, as text redacted and cut
 * to `MAX_PASSED_ON_CHARS` when it could not be read.
 */
function writeAnswer(parsed: ParsedJson, body: string, secrets: readonly (string | undefined)[]): unknown {
  if (parsed.ok) return parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : { answer: parsed.value };
  return { answer: passedOnText(body, secrets) };
}

/** The error for a non-2xx answer (assumptions `error-shape`, `auth-error`). */
export function errorFor(
  key: EndpointKey,
  response: HttpResponse,
  secrets: readonly (string | undefined)[] = [],
  summary: string = endpoints[key].summary,
): PagerlyError {
  const endpoint = endpoints[key];
  const { status } = response;
  if (status >= 300 && status < 400) return redirectError(key, status, header(response, 'location'), response.url, secrets, summary);
  // Too deep to read safely reads as "not JSON": only its excerpt is quoted.
  const parsed = parseJsonAnswer(response.body);
  const text = parsed.ok ? errorText(parsed.value) : undefined;
  const serviceMessage = text === undefined ? undefined : redact(text, secrets);
  const details = { endpoint: key, status, serviceMessage };
  const said = serviceMessage ? ` The service said: "${serviceMessage}".` : '';
  const action = summary.charAt(0).toLowerCase() + summary.slice(1);

  // The key check refuses nothing but the key: its 400, 401 and 403 all say the key cannot be used.
  const refusesTheKey = endpoint.checksKey === true && (status === 400 || status === 403);
  if (status === 401 || refusesTheKey || (status === 400 && serviceMessage !== undefined && NAMES_THE_KEY.test(serviceMessage))) {
    return new AuthenticationError(
      `The API key was refused.${said} Check it was copied whole and is still active; an org admin can generate a new one in the dashboard (API keys).`,
      details,
    );
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(header(response, 'retry-after'));
    const when = seconds === undefined ? 'later' : retryWhen(seconds);
    return new RateLimitError(`The service is rate limiting this API key; try again ${when}.${said}`, seconds, details);
  }
  if (status >= 500) {
    const body = serviceMessage ?? (response.body.trim() ? `"${excerpt(response.body, secrets)}"` : 'no details');
    const mayHaveApplied = statusMayHaveApplied(status, endpoint.idempotent);
    const advice = mayHaveApplied ? mayHaveAppliedAdvice(key, summary) : 'This is usually temporary; try again.';
    return new ServerError(`The service failed to ${action} (HTTP ${status}: ${body}). ${advice}`, { ...details, mayHaveApplied });
  }
  if (!parsed.ok && response.body.trim() !== '') {
    return new InvalidResponseError(
      `The service answered HTTP ${status} with a body that is not JSON: "${excerpt(response.body, secrets)}". Check the base URL points at the API.`,
      details,
    );
  }
  if (status === 403) {
    // On an admin-only endpoint a refusal is about admin rights unless the service names another
    // reason (the owner is protected even from admins): then its reason leads, without a wrong hint.
    const aboutAdminRights = serviceMessage === undefined || /admin/i.test(serviceMessage);
    const message =
      endpoint.adminOnly && aboutAdminRights
        ? `Only an org admin can ${action}, and this API key was generated by someone who is not one (a key acts as the person who generated it). Use an org admin's API key.${said}`
        : serviceMessage !== undefined && endpoint.adminOnly
          ? `Not allowed to ${action}: ${serviceMessage}.`
          : `The person who generated this API key is not allowed to ${action}.${said}`;
    return new PermissionError(message, details);
  }
  if (status === 404) {
    return new NotFoundError(`Could not ${action}: not found.${said || ' Check the base URL.'}`, details);
  }
  if (status === 400 || status === 422) {
    const problem = serviceMessage ?? 'the service gave no reason';
    return new InvalidInputError(`The service refused the input to ${action}: ${problem}.`, [{ field: '', problem }], 'service', details);
  }
  return new RequestError(`The service refused to ${action} (HTTP ${status}).${said}`, details);
}
