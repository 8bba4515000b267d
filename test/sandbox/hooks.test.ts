import { afterEach, describe, expect, it } from '@jest/globals';
import { onCallChangeEvent } from '../../shared/schemas/on-call-change-event.ts';
import { demoKeys, HOUR, startReceiver, startSandbox, type Receiver, type Running } from './support.ts';

describe('sandbox: on-call change hooks', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(answer?: (n: number) => number | 'hang', options: Parameters<typeof startSandbox>[0] = {}) {
    const s = await startSandbox(options);
    cleanups.push(() => s.sandbox.close());
    const receiver = await startReceiver(answer);
    cleanups.push(() => receiver.close());
    return { s, receiver };
  }

  const subscribe = async (s: Running, receiver: Receiver, platform = 'zapier', extra: object = {}, key = demoKeys.acmeUser) =>
    (await s.call(`/o/${platform}/subscribe`, { method: 'POST', key, body: { url: receiver.url, ...extra } })).json.id as string;

  it('delivers one event per changed team, with the documented shape and headers', async () => {
    const { s, receiver } = await setUp();
    const id = await subscribe(s, receiver);
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();

    expect(receiver.received.map((hook) => hook.body.team.name).sort()).toEqual(['Payments', 'Platform']);
    const platform = receiver.received.find((hook) => hook.body.team.name === 'Platform')!;
    expect(platform.body).toEqual({
      id: platform.body.id,
      type: 'oncall.changed',
      occurred_at: '2026-11-02T09:00:00.000Z',
      team: { id: 'team_platform', name: 'Platform' },
      previous: [{ id: 'usr_alan', name: 'Alan Turing', email: 'alan@acme.example', imageurl: 'https://images.acme.example/alan.png' }],
      current: [{ id: 'usr_edsger', name: 'Edsger Dijkstra', email: 'edsger@acme.example', imageurl: 'https://images.acme.example/edsger.png' }],
    });
    expect(platform.body.id).toMatch(/^evt_\d{4}$/);
    for (const hook of receiver.received) {
      expect(onCallChangeEvent.safeParse(hook.body).success).toBe(true);
      expect(hook.headers['x-pagerly-event-id']).toBe(hook.body.id);
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['user-agent']).toBe('pagerly-sandbox');
    }
    expect(s.sandbox.deliveries.log.map((attempt) => [attempt.subscriptionId, attempt.attempt, attempt.outcome, attempt.status])).toEqual([
      [id, 1, 'delivered', 200],
      [id, 1, 'delivered', 200],
    ]);
  });

  it("sends nothing when nobody changes, and only the other organization's own changes to it", async () => {
    const { s, receiver } = await setUp();
    await subscribe(s, receiver, 'make', {}, demoKeys.globexAdmin);
    await s.sandbox.checkOnCallChanges();
    await s.sandbox.clock.advance(30 * 60_000);
    await s.sandbox.deliveries.idle();
    expect(receiver.received).toHaveLength(0);

    await s.sandbox.clock.advance(30 * 60_000);
    await s.sandbox.deliveries.idle();
    expect(receiver.received.map((hook) => hook.body.team.name)).toEqual(['Operations']);
  });

  it("a team-filtered subscription gets only its team's changes", async () => {
    const { s, receiver } = await setUp();
    await subscribe(s, receiver, 'make', { teamname: 'payments' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.body).toMatchObject({
      team: { id: 'team_payments', name: 'Payments' },
      previous: [{ id: 'usr_katherine', imageurl: null }, { id: 'usr_grace' }],
      current: [{ id: 'usr_edsger' }, { id: 'usr_grace' }],
    });
  });

  it('retries a failed delivery with the same event id and body', async () => {
    const { s, receiver } = await setUp((n) => (n === 0 ? 500 : 200));
    await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second?.headers['x-pagerly-event-id']).toBe(first?.headers['x-pagerly-event-id']);
    expect(second?.body).toEqual(first?.body);
    expect(s.sandbox.deliveries.log.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [1, 'failed-status', 500],
      [2, 'delivered', 200],
    ]);
    expect(s.sandbox.deliveries.failed).toHaveLength(0);
  });

  it('retries a delivery that timed out', async () => {
    const { s, receiver } = await setUp((n) => (n === 0 ? 'hang' : 204), { delivery: { timeoutMs: 1_000, retryDelaysMs: [20] } });
    await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(s.sandbox.deliveries.log.map((a) => a.outcome)).toEqual(['timeout', 'delivered']);
    expect(receiver.received[1]?.body.id).toBe(receiver.received[0]?.body.id);
  });

  it('gives up after the last retry and records the failure', async () => {
    const { s, receiver } = await setUp(() => 503);
    const id = await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(receiver.received).toHaveLength(3);
    expect(s.sandbox.deliveries.log.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(s.sandbox.deliveries.failed).toEqual([
      expect.objectContaining({ eventId: receiver.received[0]?.body.id, subscriptionId: id, attempts: 3, lastOutcome: 'failed-status' }),
    ]);
    expect(s.sandbox.world.subscriptions.has(id)).toBe(true);
  });

  it('counts an unreachable receiver as a network error', async () => {
    const { s, receiver } = await setUp();
    await receiver.close();
    await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(s.sandbox.deliveries.log.map((a) => a.outcome)).toEqual(['network-error', 'network-error', 'network-error']);
    expect(s.sandbox.deliveries.failed).toHaveLength(1);
  });

  it('removes the subscription when the receiver answers 410 Gone', async () => {
    const { s, receiver } = await setUp(() => 410);
    const id = await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(receiver.received).toHaveLength(1);
    expect(s.sandbox.deliveries.log.map((a) => [a.outcome, a.status])).toEqual([['gone', 410]]);
    expect(s.sandbox.world.subscriptions.has(id)).toBe(false);
    expect((await s.call(`/o/zapier/subscribe/${id}`, { method: 'DELETE', key: demoKeys.acmeUser })).status).toBe(404);
  });

  it('raises a change when a person on call is removed from the directory', async () => {
    const { s, receiver } = await setUp();
    await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.call('/o/oncalluser?email=alan@acme.example', { method: 'DELETE', key: demoKeys.acmeAdmin });
    await s.sandbox.deliveries.idle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.body.previous.map((u: { id: string }) => u.id)).toEqual(['usr_alan']);
    expect(receiver.received[0]?.body.current.map((u: { id: string }) => u.id)).toEqual(['usr_hedy']);
  });

  it('close() abandons deliveries waiting for a retry', async () => {
    const { s, receiver } = await setUp(() => 500, { delivery: { timeoutMs: 200, retryDelaysMs: [60_000] } });
    await subscribe(s, receiver, 'zapier', { teamname: 'Platform' });
    await s.sandbox.clock.advance(HOUR);
    while (s.sandbox.deliveries.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await s.sandbox.close();
    await s.sandbox.deliveries.idle();
    // Far from the retry's 60 s, with room for a busy machine's close.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(receiver.received).toHaveLength(1);
  });
});
