import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { teamOperation } from '../../zapier-app/triggers/team.ts';
import { closedPort } from '../support/loopback-server.ts';
import { appTester, authData, expectNoKey, failureOf } from './support.ts';

/** A service nobody answers at: a loopback port that was just closed (real sockets, no nock). */
const saved = process.env.PAGERLY_BASE_URL;
beforeAll(async () => {
  process.env.PAGERLY_BASE_URL = await closedPort();
});
afterAll(() => {
  if (saved === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = saved;
});

describe('a service that cannot be reached', () => {
  it('fails without showing the key', async () => {
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expect(failure.raw).toMatch(/ECONNREFUSED/);
    expectNoKey(failure);
  });

  it('asks Zapier to retry later, like a 5xx', async () => {
    const failure = await failureOf(appTester(teamOperation.perform, { authData }));
    expect(failure.name).toBe('ThrottledError');
    expect(failure.delay).toBeGreaterThanOrEqual(60);
    expect(failure.text).toMatch(/could not be reached|could not reach|network/i);
  });
});
