import { afterEach, describe, expect, it } from '@jest/globals';
import { retryNoticeText } from '../../cli/retry-notice.ts';
import { retryAfterSeconds } from '../../shared/http/retry-after.ts';
import type { OutgoingRequest } from '../../shared/http/types.ts';
import { fetchSender, type RetryNotice } from '../../shared/transports/fetch-transport.ts';
import { loopbackServer } from '../support/loopback-server.ts';

/**
 * The fetch transport's sender, for a request to another service than Pagerly (the directory
 * import): the same rules (retries of a 429, redirects only to the same origin), a URL that
 * carries its own query sent as it is, and the wait a refused answer asks for read from that
 * service's own header.
 */
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const request = (url: string): OutgoingRequest => ({
  endpoint: 'vendor: list users',
  method: 'GET',
  url,
  query: {},
  headers: { Authorization: 'Token token=sender-test-key-1b2c3d' },
  body: undefined,
  idempotent: true,
});

describe('fetchSender', () => {
  it("waits what the service's own header says, and sends a URL's query as it is", async () => {
    const seen: string[] = [];
    const server = await loopbackServer((incoming, response) => {
      seen.push(incoming.url ?? '');
      if (seen.length === 1) response.writeHead(429, { 'ratelimit-reset': '1' }).end('{}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"users": []}');
    });
    close = server.close;
    const retries: RetryNotice[] = [];
    const sender = fetchSender({
      backoffMs: 5,
      waitAskedBy: (answer) => retryAfterSeconds(answer.headers['ratelimit-reset']),
      onRetry: (retry) => retries.push(retry),
      proxyEnv: {},
    });
    const answer = await sender.send(request(`${server.url}/users?include%5B%5D=contact_methods&offset=0`));
    expect(answer.status).toBe(200);
    expect(seen).toEqual(['/users?include%5B%5D=contact_methods&offset=0', '/users?include%5B%5D=contact_methods&offset=0']);
    expect(retries).toEqual([{ attempt: 2, of: 3, delayMs: 1000, status: 429 }]);
  });

  it('without a wait in any header, backs off', async () => {
    let count = 0;
    const server = await loopbackServer((_incoming, response) => {
      count += 1;
      if (count === 1) response.writeHead(429).end();
      else response.writeHead(200).end('{}');
    });
    close = server.close;
    const retries: RetryNotice[] = [];
    await fetchSender({ backoffMs: 7, onRetry: (retry) => retries.push(retry), proxyEnv: {} }).send(request(`${server.url}/users`));
    expect(retries).toEqual([{ attempt: 2, of: 3, delayMs: 7, status: 429 }]);
  });

  it("a retry's notice names the service it waits for", () => {
    expect(retryNoticeText({ attempt: 2, of: 7, delayMs: 2000, status: 429 }, 'PagerDuty')).toBe(
      'Rate limited by PagerDuty; retrying in 2 s (attempt 2 of 7)…',
    );
    expect(retryNoticeText({ attempt: 2, of: 3, delayMs: 500, status: 429 })).toBe('Rate limited by Pagerly; retrying in 0.5 s (attempt 2 of 3)…');
  });
});
