import { afterAll, afterEach, beforeAll } from '@jest/globals';
import nock from 'nock';

/**
 * For test files that replay HTTP with nock. nock patches Node's own `http` module, which
 * every test file in a jest worker shares: without a full restore, one file's interceptor
 * (and its "no network" rule) would answer the next file's real loopback requests.
 * `allowLoopback` lets transport tests reach their own 127.0.0.1 servers.
 */
export function offlineNock({ allowLoopback = false } = {}): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    if (allowLoopback) nock.enableNetConnect('127.0.0.1');
  });
  afterEach(() => nock.cleanAll());
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });
}

/** Counts requests nock could not match: a request an offline test should not have made. */
export function unmatchedRequests(): { readonly count: number; stop(): void } {
  let count = 0;
  const listener = () => {
    count += 1;
  };
  nock.emitter.on('no match', listener);
  return {
    get count() {
      return count;
    },
    stop: () => nock.emitter.removeListener('no match', listener),
  };
}
