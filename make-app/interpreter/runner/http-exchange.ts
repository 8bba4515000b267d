import { MAX_JSON_DEPTH, parseJsonAnswer } from '../../../shared/http/json.ts';
import { redact } from '../../../shared/redact.ts';
import { MakeError } from './make-error.ts';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface IncomingResponse {
  statusCode: number;
  /** Lower-case names, as Make exposes them (``headers.`content-type` ``). */
  headers: Record<string, string>;
  /** Parsed JSON for a JSON content type; the text otherwise; undefined when empty. */
  body: unknown;
}

/**
 * Sends one request over real HTTP (fetch). No answer becomes Make's ConnectionError, which
 * Make retries later; a JSON answer that does not parse, or is nested too deep to walk safely,
 * becomes a DataError (Make's engine fails to read it: our model of that behaviour).
 * `followRedirects`: as Make does by default, fetch follows a redirect to any host with every
 * header (it drops only Authorization and cookies across origins), so the generated app turns
 * it off and a 3xx comes back as it is.
 */
export async function exchange(request: OutgoingRequest, timeoutMs: number, followRedirects = false): Promise<IncomingResponse> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: followRedirects ? 'follow' : 'manual',
    });
  } catch (error) {
    throw noAnswer(error, request, timeoutMs, false);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The head came, the rest did not (cut off or stalled): as much a lost answer as none.
    throw noAnswer(error, request, timeoutMs, true);
  }
  const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]));
  const isJson = /json/i.test(headers['content-type'] ?? '');
  let body: unknown = text === '' ? undefined : text;
  if (isJson && text !== '') {
    const parsed = parseJsonAnswer(text);
    if (!parsed.ok && parsed.reason === 'depth') {
      throw new MakeError(
        'DataError',
        `Pagerly answered HTTP ${response.status} with JSON nested deeper than ${MAX_JSON_DEPTH} levels, which no answer of its API is; it was not read.`,
        response.status,
      );
    }
    if (!parsed.ok) {
      throw new MakeError(
        'DataError',
        `Pagerly answered HTTP ${response.status} with JSON that does not parse: ${redact(text, Object.values(request.headers)).slice(0, 120)}`,
        response.status,
      );
    }
    body = parsed.value;
  }
  return { statusCode: response.status, headers, body };
}

/** No answer, or no whole one: Make's ConnectionError, with fetch's own error left out (it holds the request). */
function noAnswer(error: unknown, request: OutgoingRequest, timeoutMs: number, partWay: boolean): MakeError {
  const timedOut = (error as Error).name === 'TimeoutError';
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
  const reason = partWay
    ? `the answer stopped part-way (${timedOut ? `no more of it within ${timeoutMs / 1000} s` : code})`
    : timedOut
      ? `no answer within ${timeoutMs / 1000} s`
      : code;
  return new MakeError('ConnectionError', `Could not reach Pagerly at ${new URL(request.url).host}: ${reason}.`);
}
