import { describe, expect, it } from '@jest/globals';
import { onCallChangedOperation } from '../../zapier-app/triggers/on-call-changed.ts';
import { offlineWithNoStrayRequest } from './replay.ts';
import { appTester, authData } from './support.ts';

// perform only reads the delivered payload: with no interceptor and no network, any request would be counted.
offlineWithNoStrayRequest();

type Item = Record<string, unknown>;
interface Delivery {
  cleanedRequest?: unknown;
  rawRequest?: { content?: string; headers?: Record<string, string> };
  teamname?: string;
}

const alan = { id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', imageurl: 'https://images.acme.example/alan.png' };
const edsger = { id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: null };
const grace = { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@acme.example', imageurl: 'https://images.acme.example/grace.png' };

/** An on-call change as the service delivers it (assumption `hook-payload`). */
const event = {
  id: 'evt_0007',
  type: 'oncall.changed',
  occurred_at: '2026-11-02T09:00:00.000Z',
  team: { id: 'team_platform', name: 'Platform' },
  previous: [alan],
  current: [edsger],
};

/** Runs the trigger's perform as Zapier does when a hook arrives. */
async function deliver({ cleanedRequest, rawRequest, teamname = '' }: Delivery): Promise<Item[]> {
  return (await appTester(onCallChangedOperation.perform, {
    authData,
    inputData: { teamname },
    cleanedRequest,
    ...(rawRequest ? { rawRequest } : {}),
  })) as Item[];
}

const only = (items: Item[]): Item => {
  expect(items).toHaveLength(1);
  return items[0]!;
};

/** An item made from a payload of an unexpected shape: kept, with a received-at time. */
function expectReceivedNow(item: Item, before: number): void {
  expect(typeof item.occurred_at).toBe('string');
  const at = Date.parse(item.occurred_at as string);
  expect(at).toBeGreaterThanOrEqual(before);
  expect(at).toBeLessThanOrEqual(Date.now());
}

describe('on_call_changed: a payload of the expected shape', () => {
  it('is one item: the whole event plus flat fields, with the event id as id', async () => {
    const item = only(await deliver({ cleanedRequest: event }));
    expect(item).toEqual({
      ...event,
      id: 'evt_0007',
      current_names: 'Edsger Dijkstra',
      current_emails: 'edsger@acme.example',
      current_count: 1,
      previous_names: 'Alan Turing',
      previous_emails: 'alan@acme.example',
      previous_count: 1,
    });
  });

  it("has every output field and the same keys as the trigger's sample", async () => {
    const item = only(await deliver({ cleanedRequest: event }));
    for (const field of onCallChangedOperation.outputFields) {
      const topLevel = field.key.split(/\[\]|__/)[0]!;
      expect(Object.keys(item)).toContain(topLevel);
    }
    expect(Object.keys(item).sort()).toEqual(Object.keys(onCallChangedOperation.sample).sort());
  });

  it('joins several people in the order delivered, and counts nobody as 0 and ""', async () => {
    const item = only(await deliver({ cleanedRequest: { ...event, previous: [], current: [edsger, grace] } }));
    expect(item).toMatchObject({
      current_names: 'Edsger Dijkstra, Grace Hopper',
      current_emails: 'edsger@acme.example, grace@acme.example',
      current_count: 2,
      previous_names: '',
      previous_emails: '',
      previous_count: 0,
    });
  });

  it('keeps fields the service may add later, at the top and inside', async () => {
    const extended = { ...event, reason: 'override', team: { ...event.team, slack_channel: '#platform' }, current: [{ ...edsger, phone: '+14155550104' }] };
    const item = only(await deliver({ cleanedRequest: extended }));
    expect(item).toMatchObject({
      reason: 'override',
      team: { id: 'team_platform', name: 'Platform', slack_channel: '#platform' },
      current: [{ phone: '+14155550104' }],
    });
  });

  it('reads the raw body when Zapier did not parse it', async () => {
    const item = only(await deliver({ cleanedRequest: {}, rawRequest: { content: JSON.stringify(event) } }));
    expect(item).toEqual(only(await deliver({ cleanedRequest: event })));
  });

  it('turns a numeric id into text', async () => {
    expect(only(await deliver({ cleanedRequest: { ...event, id: 42 } })).id).toBe('42');
  });
});

describe('on_call_changed: a payload of an unexpected shape is passed on, never dropped', () => {
  const stableId = /^unrecognized_[0-9a-f]{16}$/;

  it("without a team: one item, no team fields, still the event's id", async () => {
    const { team: _team, ...teamless } = event;
    const item = only(await deliver({ cleanedRequest: teamless }));
    expect(item).toMatchObject({ id: 'evt_0007', current_names: 'Edsger Dijkstra', type: 'oncall.changed' });
    expect(item).not.toHaveProperty('team');
    // Nothing says it is another team's, so a team filter keeps it.
    expect(await deliver({ cleanedRequest: teamless, teamname: 'Payments' })).toHaveLength(1);
  });

  it('without a type or a time: "unrecognized" and the time it was received', async () => {
    const before = Date.now();
    const { type: _type, occurred_at: _at, ...untyped } = event;
    const item = only(await deliver({ cleanedRequest: untyped }));
    expect(item).toMatchObject({ id: 'evt_0007', type: 'unrecognized', team: { name: 'Platform' } });
    expectReceivedNow(item, before);
  });

  it('an array body: one item holding it, with an id that is the same for the same payload', async () => {
    const before = Date.now();
    const body = [{ team: 'Platform' }, { team: 'Payments' }];
    const item = only(await deliver({ cleanedRequest: body }));
    expect(item).toMatchObject({ payload: body, type: 'unrecognized' });
    expect(item.id).toMatch(stableId);
    expectReceivedNow(item, before);
    expect(only(await deliver({ cleanedRequest: structuredClone(body) })).id).toBe(item.id);
    expect(only(await deliver({ cleanedRequest: [{ team: 'Platform' }] })).id).not.toBe(item.id);
  });

  it('a text body: one item holding the text, with a stable id', async () => {
    const item = only(await deliver({ cleanedRequest: {}, rawRequest: { content: 'on-call changed for Platform' } }));
    expect(item).toMatchObject({ payload: 'on-call changed for Platform', type: 'unrecognized' });
    expect(item.id).toMatch(stableId);
    expect(only(await deliver({ cleanedRequest: {}, rawRequest: { content: 'on-call changed for Platform' } })).id).toBe(item.id);
    expect(only(await deliver({ cleanedRequest: {}, rawRequest: { content: 'on-call changed for Payments' } })).id).not.toBe(item.id);
  });

  it('an empty body, or none at all: one item with a stable id', async () => {
    const empty = only(await deliver({ cleanedRequest: {}, rawRequest: { content: '' } }));
    const none = only(await deliver({}));
    for (const item of [empty, none]) {
      expect(item.id).toMatch(stableId);
      expect(item.type).toBe('unrecognized');
    }
    expect(none.id).toBe(empty.id);
  });

  it('takes the id from the event id header when the body has none, whatever prefix and case Zapier gives it', async () => {
    const { id: _id, ...idless } = event;
    for (const name of ['Http-X-Pagerly-Event-Id', 'x-pagerly-event-id', 'HTTP-X-PAGERLY-EVENT-ID']) {
      const item = only(await deliver({ cleanedRequest: idless, rawRequest: { headers: { 'Http-Content-Type': 'application/json', [name]: 'evt_0042' } } }));
      expect(item.id).toBe('evt_0042');
    }
    const textItem = only(await deliver({ cleanedRequest: {}, rawRequest: { content: 'hello', headers: { 'Http-X-Pagerly-Event-Id': 'evt_0043' } } }));
    expect(textItem.id).toBe('evt_0043');
    // The body's own id wins over the header.
    const both = only(await deliver({ cleanedRequest: event, rawRequest: { headers: { 'Http-X-Pagerly-Event-Id': 'evt_0042' } } }));
    expect(both.id).toBe('evt_0007');
  });

  it("treats an empty id as no id: the header's, or a stable one", async () => {
    const headers = { 'Http-X-Pagerly-Event-Id': 'evt_0044' };
    expect(only(await deliver({ cleanedRequest: { ...event, id: '' }, rawRequest: { headers } })).id).toBe('evt_0044');
    const blank = only(await deliver({ cleanedRequest: { ...event, id: '  ' } }));
    expect(blank.id).toMatch(stableId);
  });
});

describe('on_call_changed: the Team filter', () => {
  it('drops a change of another team', async () => {
    expect(await deliver({ cleanedRequest: event, teamname: 'Payments' })).toEqual([]);
  });

  it('matches the chosen team ignoring case and surrounding spaces', async () => {
    for (const teamname of ['Platform', 'platform', '  PLATFORM ']) {
      expect(only(await deliver({ cleanedRequest: event, teamname })).id).toBe('evt_0007');
    }
  });

  it("keeps every team's changes when no team is chosen", async () => {
    const payments = { ...event, id: 'evt_0008', team: { id: 'team_payments', name: 'Payments' } };
    expect(only(await deliver({ cleanedRequest: payments })).team).toEqual({ id: 'team_payments', name: 'Payments' });
  });
});
