import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ProxyError } from '../../shared/errors.ts';
import type { HttpRequest } from '../../shared/http/types.ts';
import { fetchTransport } from '../../shared/transports/fetch-transport.ts';

/**
 * Node's fetch turns a 407 into a network error (the Fetch standard's rule); Bun's and Deno's
 * give it back as an answer (checked on Bun 1 and Deno 2 against a loopback server answering
 * 407). Either way it is a proxy's refusal, never the service's answer: the same ProxyError.
 */
const request: HttpRequest = {
  endpoint: 'createIncident',
  method: 'POST',
  url: 'http://api.pagerly.invalid/incident',
  query: {},
  headers: { 'X-APIKEY': 'pgr_answer-407-key-0123456789', 'content-type': 'application/json' },
  body: '{}',
  idempotent: false,
} as unknown as HttpRequest;

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('a 407 that comes back as an answer (Bun, Deno)', () => {
  it('is a ProxyError, not retried, and never the service answering', async () => {
    const fetch = jest.fn(async () => new Response('Proxy Authentication Required', { status: 407, headers: { 'proxy-authenticate': 'Basic' } }));
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    const error = await fetchTransport({ proxyEnv: {}, backoffMs: 1 })
      .send(request)
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(ProxyError);
    expect((error as ProxyError).retryable).toBe(false);
    expect((error as Error).message).toContain('nothing reached the service');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
