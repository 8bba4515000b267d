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

/**
 * A body nested 10,000 deep parses (V8's JSON.parse does not recurse) but overflows the stack
 * of whatever walks it: the item's id hash, core's output cleaning. The trigger refuses a body
 * deeper than any answer may be (100 levels), as the API reader and Make's runner refuse such
 * an answer, with core's own error for Zap builders (z.errors.Error:
 * docs.zapier.com/platform/build/errors), never a bare RangeError.
 */
describe('on_call_changed: a body nested too deep', () => {
  const DEPTH = 10_000;
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  async function refusal(delivery: Delivery): Promise<unknown> {
    try {
      await deliver(delivery);
    } catch (error) {
      return error;
    }
    throw new Error('the delivery was taken');
  }

  function expectTypedRefusal(error: unknown): void {
    expect(error).not.toBeInstanceOf(RangeError);
    expect((error as Error).name).toBe('AppError');
    const payload = JSON.parse((error as Error).message) as { message: string; code: string };
    expect(payload.code).toBe('invalid_response');
    expect(payload.message).toMatch(/nested deeper than 100 levels/);
    expect(payload.message).not.toMatch(/call stack/i);
  }

  // Zapier leaves cleanedRequest empty for a body it did not parse into an object (a list, say):
  // the trigger parses the raw content itself, and that is where a 10,000-deep body reaches it.
  it.each([
    ['arrays', arrays(DEPTH)],
    ['objects in a list', `[${objects(DEPTH)}]`],
  ])('a raw body of %s nested 10,000 deep: a Zapier error that says why, not a RangeError', async (_shape, content) => {
    expectTypedRefusal(await refusal({ cleanedRequest: {}, rawRequest: { content } }));
  });

  // Deeper than the limit but shallow enough for core to log the bundle (below): the app's own rule.
  it.each([
    ['a field of an event of the expected shape', () => ({ cleanedRequest: { ...event, extra: JSON.parse(objects(1_000)) } })],
    ['a person inside the event', () => ({ cleanedRequest: { ...event, current: [{ ...edsger, shift: JSON.parse(arrays(1_000)) }] } })],
  ])('%s nested 1,000 deep: the same Zapier error', async (_where, delivery) => {
    expectTypedRefusal(await refusal(delivery()));
  });

  it('a body 100 levels deep, the most an answer may be, is still an item', async () => {
    const nested = JSON.parse(objects(98)) as unknown;
    const item = only(await deliver({ cleanedRequest: { ...event, extra: nested } }));
    expect(item.id).toBe('evt_0007');
  });

  // zapier-platform-core 19.1.0 JSON.stringifies the whole bundle for its "what happened" log
  // (app-middlewares/before/add-app-context.js), a middleware that runs before any app's code
  // (create-app.js puts it ahead of the app's beforeApp): a cleanedRequest nested 10,000 deep
  // overflows there, and no app can catch it. Pinned, so a core that stops doing so shows here
  // and the row above can cover this case too.
  it("a parsed body nested 10,000 deep overflows in core's own bundle log, before the app runs", async () => {
    const error = await refusal({ cleanedRequest: JSON.parse(objects(DEPTH)) });
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).stack).toMatch(/zapier-platform-core\/src\/app-middlewares\/before\/add-app-context\.js/);
  });
});
