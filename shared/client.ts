import { endpoints, type EndpointKey, type Endpoints } from './catalog/endpoints.ts';
import type { InputOf, OutputOf } from './catalog/endpoint.ts';
import { buildRequest, checkInput, usableApiKey } from './http/request.ts';
import { interpretResponse, MAX_WHOLE_ANSWER_CHARS, passedOnText } from './http/response.ts';
import type { Transport } from './http/types.ts';
import { createdResult } from './operations/created-id.ts';
import { redact, redactDeep } from './redact.ts';
import { resolveBases, type ApiSettings } from './settings.ts';

/** Endpoints whose input has no required field can be called without an argument. */
type Call<K extends EndpointKey> =
  Record<never, never> extends InputOf<Endpoints[K]>
    ? (input?: InputOf<Endpoints[K]>) => Promise<OutputOf<Endpoints[K]>>
    : (input: InputOf<Endpoints[K]>) => Promise<OutputOf<Endpoints[K]>>;

export type PagerlyClient = { readonly [K in EndpointKey]: Call<K> } & {
  call<K extends EndpointKey>(key: K, input: InputOf<Endpoints[K]>): Promise<OutputOf<Endpoints[K]>>;
  /**
   * An endpoint chosen at run time (an operation's description names it), with input only known
   * at run time: checked against the endpoint's schema before sending, as every call is.
   */
  send(key: EndpointKey, input: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** Throws what `call` would throw before sending (the key, then the input); sends nothing. */
  check(key: EndpointKey, input: unknown, options?: { partial?: boolean }): void;
  /** `text` with this client's key taken out in every form `redact` knows: for messages built from input or answers. */
  redact(text: string): string;
};

/**
 * What a client's calls do, as their errors say it, where that is less than all an endpoint
 * does: a client made for one operation (`operationSummaries`) words its errors by it.
 */
export type ClientSummaries = Partial<Readonly<Record<EndpointKey, string>>>;

/**
 * A typed client with one method per catalog endpoint, on any transport.
 * Settings are checked once, here, so a bad base URL fails before the first call.
 */
export function createClient(settings: ApiSettings & { transport: Transport; summaries?: ClientSummaries | undefined }): PagerlyClient {
  const bases = resolveBases(settings);
  const { transport } = settings;
  const summaryOf = (key: EndpointKey) => settings.summaries?.[key];
  const send = async (key: EndpointKey, input: unknown): Promise<unknown> => {
    const summary = summaryOf(key);
    const request = buildRequest(key, input, settings, bases, summary);
    const response = await transport.send(request);
    // The key is sent trimmed; a service that quotes it quotes the trimmed one.
    const secrets = [settings.apiKey, typeof settings.apiKey === 'string' ? settings.apiKey.trim() : undefined];
    const answer = interpretResponse(key, response, secrets, summary ?? endpoints[key].summary);
    if (!endpoints[key].successWhateverTheBody) return answer;
    // A write's answer too big to pass on whole goes on as an excerpt; a create's id is still read in it.
    const passedOn = response.body.length > MAX_WHOLE_ANSWER_CHARS ? { answer: passedOnText(response.body, secrets) } : undefined;
    const creates = endpoints[key].createsUnless;
    // One record, as every platform's action gives: a list is kept whole under `answer`, as a create's is.
    // A write's answer is passed on to a step or a model: one that echoes the key has it taken out.
    if (!creates) return passedOn ?? redactDeep(Array.isArray(answer) ? { answer } : answer, secrets);
    // A 2xx was done (assumption `created-id`): the id is read where the service put it, and an
    // update keeps the id it named when the answer leaves it out.
    const given = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[creates.field] : undefined;
    const location = response.headers.location ?? response.headers.Location;
    return createdResult(creates.noun, {
      value: answer,
      ...(passedOn ? { passedOn } : {}),
      status: response.status,
      location: Array.isArray(location) ? location[0] : location,
      givenId: typeof given === 'string' ? given : undefined,
      secrets,
    });
  };
  const call = <K extends EndpointKey>(key: K, input: InputOf<Endpoints[K]>) => send(key, input) as Promise<OutputOf<Endpoints[K]>>;
  const methods = Object.fromEntries((Object.keys(endpoints) as EndpointKey[]).map((key) => [key, (input?: object) => send(key, input ?? {})]));
  const checkOnly = (key: EndpointKey, input: unknown, options: { partial?: boolean } = {}) => {
    usableApiKey(settings.apiKey);
    const summary = summaryOf(key);
    checkInput(key, input, summary === undefined ? options : { ...options, summary });
  };
  const secrets = [settings.apiKey, typeof settings.apiKey === 'string' ? settings.apiKey.trim() : undefined];
  return { ...methods, call, send, check: checkOnly, redact: (text: string) => redact(text, secrets) } as PagerlyClient;
}
