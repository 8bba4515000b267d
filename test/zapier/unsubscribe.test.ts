import { describe, expect, it } from '@jest/globals';
import { onCallChangedOperation } from '../../zapier-app/triggers/on-call-changed.ts';
import { define, expectAllUsed, offlineWithNoStrayRequest } from './replay.ts';
import { appTester, authData, failureOf } from './support.ts';

// The reference documents no unsubscribe path: removal by id is a fast path, and an answer that
// says the hook is not there (404, 405, 410) is the goal reached. Zapier's own rule is the net:
// a hook URL that answers 410 is removed by the sender.
offlineWithNoStrayRequest();

const unsubscribe = (status: number, body: string) => {
  const scopes = define([{ scope: 'https://api.pagerly.io', method: 'DELETE', path: '/o/zapier/subscribe/sub_0451', status, response: body }]);
  return { scopes, run: appTester(onCallChangedOperation.performUnsubscribe, { authData, subscribeData: { id: 'sub_0451' } }) };
};

describe('turning a Zap off removes its hook, or finds it already gone', () => {
  it.each([404, 405, 410])('%i: already gone, the Zap turns off cleanly', async (status) => {
    const { scopes, run } = unsubscribe(status, '[{"Error":"gone"}]');
    await expect(run).resolves.toEqual({ id: 'sub_0451', removed: true });
    expectAllUsed(scopes);
  });

  it.each([
    [500, 'ThrottledError'],
    [403, 'AppError'],
  ])('%i: reported, not taken for removed', async (status, name) => {
    const { scopes, run } = unsubscribe(status, '[{"Error":"no"}]');
    expect((await failureOf(run)).name).toBe(name);
    expectAllUsed(scopes);
  });
});
