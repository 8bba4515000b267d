import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { onCallChangedOperation } from '../../zapier-app/triggers/on-call-changed.ts';
import { offlineNock } from '../support/offline-nock.ts';
import { expectAllUsed, recordedResponse, replay, replaySteps, unmatchedRequests } from './replay.ts';
import { appTester, authData, failureOf, KEY } from './support.ts';

offlineNock();

const { performSubscribe, performUnsubscribe, perform, performList } = onCallChangedOperation;
const HOOK_URL = 'https://hooks.example.com/pagerly/on-call';
type Item = Record<string, unknown>;

describe('on_call_changed: subscribing and unsubscribing', () => {
  it('subscribes the hook URL for the chosen team and returns the subscription, whose id Zapier stores', async () => {
    const scopes = replaySteps('zapier-hook', 0);
    const subscription = await appTester(performSubscribe, { authData, targetUrl: HOOK_URL, inputData: { teamname: 'Platform' } });
    expectAllUsed(scopes);
    expect(subscription).toEqual(recordedResponse('zapier-hook', 0));
    expect(subscription).toMatchObject({ id: 'sub_0001' });
  });

  it('unsubscribes by the stored id', async () => {
    const scopes = replaySteps('zapier-hook', 1);
    const removal = await appTester(performUnsubscribe, {
      authData,
      targetUrl: HOOK_URL,
      subscribeData: recordedResponse('zapier-hook', 0) as { id: string },
      inputData: { teamname: 'Platform' },
    });
    expectAllUsed(scopes);
    expect(removal).toEqual({ id: 'sub_0001', removed: true });
  });

  it('treats a hook the service already removed as unsubscribed, not as an error', async () => {
    const scopes = replaySteps('zapier-hook', 2);
    const removal = await appTester(performUnsubscribe, { authData, subscribeData: { id: 'sub_0001' } });
    expectAllUsed(scopes);
    expect(removal).toEqual({ id: 'sub_0001', removed: true });
  });

  it('subscribe, then unsubscribe with what subscribe returned, then again: the recorded sequence', async () => {
    const scopes = replay('zapier-hook');
    const subscribeData = (await appTester(performSubscribe, { authData, targetUrl: HOOK_URL, inputData: { teamname: 'Platform' } })) as { id: string };
    const first = await appTester(performUnsubscribe, { authData, subscribeData });
    const second = await appTester(performUnsubscribe, { authData, subscribeData });
    expectAllUsed(scopes);
    expect([first, second]).toEqual([
      { id: 'sub_0001', removed: true },
      { id: 'sub_0001', removed: true },
    ]);
  });

  it('sends nothing to unsubscribe when no id was stored', async () => {
    const unmatched = unmatchedRequests();
    try {
      expect(await appTester(performUnsubscribe, { authData, subscribeData: {} as { id: string } })).toEqual({ removed: false });
      expect(unmatched.count).toBe(0);
    } finally {
      unmatched.stop();
    }
  });

  it('refuses a target URL that is not http(s) before sending', async () => {
    const unmatched = unmatchedRequests();
    try {
      const failure = await failureOf(appTester(performSubscribe, { authData, targetUrl: 'ftp://hooks.example.com/x', inputData: {} }));
      expect(failure).toMatchObject({ name: 'AppError', code: 'invalid_input' });
      expect(failure.text).toContain('url must be an http or https URL');
      expect(unmatched.count).toBe(0);
    } finally {
      unmatched.stop();
    }
  });
});

describe('on_call_changed: performList (test step and field mapping before any change)', () => {
  /** What a hook of the trigger would give, for comparing shapes. */
  const hookItem = async (): Promise<Item> => {
    const items = (await appTester(perform, { authData, inputData: {}, cleanedRequest: onCallChangedOperation.sample })) as Item[];
    return items[0]!;
  };

  it('with a team: who is on call now, as one item shaped exactly like a hook item', async () => {
    const before = Date.now();
    const scopes = replay('list-teams', 'on-call-team');
    // Chosen in other letter case: the team list's own spelling is what is asked for.
    const items = (await appTester(performList, { authData, inputData: { teamname: 'platform' } })) as Item[];
    expectAllUsed(scopes);
    expect(items).toHaveLength(1);
    const item = items[0]!;
    const [alan] = recordedResponse('on-call-team') as Item[];
    expect(item).toEqual({
      id: 'current_team_platform_usr_alan',
      type: 'oncall.changed',
      occurred_at: item.occurred_at,
      team: { id: 'team_platform', name: 'Platform' },
      previous: [],
      current: [alan],
      current_names: 'Alan Turing',
      current_emails: 'alan@acme.example',
      current_count: 1,
      previous_names: '',
      previous_emails: '',
      previous_count: 0,
    });
    expect(Date.parse(item.occurred_at as string)).toBeGreaterThanOrEqual(before);
    expect(Object.keys(item).sort()).toEqual(Object.keys(await hookItem()).sort());
    const outputKeys = new Set(onCallChangedOperation.outputFields.map((f) => f.key.split(/\[\]|__/)[0]!));
    for (const key of outputKeys) expect(Object.keys(item)).toContain(key);
  });

  it('with no team: one item per team, nobody on call included', async () => {
    const scopes = replay('on-call-every-team');
    const items = (await appTester(performList, { authData, inputData: { teamname: '' } })) as Item[];
    expectAllUsed(scopes);
    expect(items.map((i) => [i.id, (i.team as Item).name, i.current_count, i.current_names])).toEqual([
      ['current_team_platform_usr_alan', 'Platform', 1, 'Alan Turing'],
      ['current_team_payments_usr_katherine+usr_grace', 'Payments', 2, 'Katherine Johnson, Grace Hopper'],
      ['current_team_mobile_nobody', 'Mobile', 0, ''],
    ]);
    const keys = Object.keys(await hookItem()).sort();
    for (const item of items) expect(Object.keys(item).sort()).toEqual(keys);
  });

  it('with no team in an organization without teams: nothing', async () => {
    const scopes = replay('list-teams-empty');
    expect(await appTester(performList, { authData, inputData: {} })).toEqual([]);
    expectAllUsed(scopes);
  });

  it('with a team that does not exist: a clear error naming it, asking to pick one from the dropdown', async () => {
    const scopes = replay('list-teams');
    const failure = await failureOf(appTester(performList, { authData, inputData: { teamname: 'Ops' } }));
    expectAllUsed(scopes);
    expect(failure).toMatchObject({ name: 'AppError', code: 'not_found' });
    expect(failure.text).toBe(
      'No team named "Ops" in this organization. None of the organization\'s 3 teams has a close name. Pick one from the Team dropdown.',
    );
    expect(failure.raw).not.toContain(KEY);
    expect(nock.pendingMocks()).toEqual([]);
  });
});
