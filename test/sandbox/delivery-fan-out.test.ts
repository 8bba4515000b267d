import { afterEach, describe, expect, it } from '@jest/globals';
import { demoKeys, HOUR, InFlightGauge, startSandbox, startScriptedReceiver, until, type Reaction, type Running, type ScriptedReceiver } from './support.ts';

/**
 * One on-call change fanned out to many subscriptions over real loopback HTTP, with receivers
 * that answer, fail, hang, reset the connection or say 410 Gone.
 */
describe('sandbox: hook fan-out', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<Running> {
    const s = await startSandbox({ rateLimit: false, ...options });
    cleanups.push(() => s.sandbox.close());
    return s;
  }

  async function receivers(count: number, script: (path: string, n: number) => Reaction, options: { gauge: InFlightGauge; answerDelayMs?: number }) {
    const started: ScriptedReceiver[] = [];
    for (let i = 0; i < count; i += 1) {
      const receiver = await startScriptedReceiver(script, options);
      cleanups.push(() => receiver.close());
      started.push(receiver);
    }
    return started;
  }

  const subscribeTo = async (s: Running, url: string) => {
    const answer = await s.call('/o/zapier/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url, teamname: 'Platform' } });
    expect(answer.status).toBe(201);
    return answer.json.id as string;
  };

  it('delivers to 200 subscriptions side by side, each with its own retries, within the concurrency bound', async () => {
    const kinds = { slow: 4, dead: 4, gone: 12, flaky: 30, ok: 150 } as const;
    type Kind = keyof typeof kinds;
    const script = (path: string, n: number): Reaction => {
      const kind = path.split('/')[2] as Kind;
      switch (kind) {
        case 'slow':
          return n === 0 ? 'hang' : 200; // never answers in time, then does
        case 'dead':
          return 500;
        case 'gone':
          return 410;
        case 'flaky':
          return n === 0 ? 500 : n === 1 ? 'reset' : 200; // fails twice, then succeeds
        case 'ok':
          return 200;
      }
      throw new Error(`unexpected path ${path}`);
    };
    const gauge = new InFlightGauge();
    const farm = await receivers(5, script, { gauge, answerDelayMs: 2 });
    const concurrency = 12;
    const slowLaneSize = 4;
    // The time-out only has to tell a hanging receiver from a busy machine: 2 ms answers must
    // never reach it, even with the CPU shared with an install or another suite.
    const s = await sandbox({ delivery: { timeoutMs: 1_500, retryDelaysMs: [20, 40], concurrency, slowLaneSize } });

    const subscriptions: { id: string; kind: Kind; receiver: ScriptedReceiver; path: string }[] = [];
    for (const [kind, count] of Object.entries(kinds) as [Kind, number][]) {
      for (let i = 0; i < count; i += 1) {
        const receiver = farm[subscriptions.length % farm.length]!;
        const path = `/hook/${kind}/${i}`;
        subscriptions.push({ id: await subscribeTo(s, receiver.base + path), kind, receiver, path });
      }
    }
    expect(subscriptions).toHaveLength(200);
    const ofKind = (kind: Kind) => subscriptions.filter((sub) => sub.kind === kind);

    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    const { log, failed } = s.sandbox.deliveries;

    // Every live subscription got the event, as many times as its receiver needed.
    const expectedRequests: Record<Kind, number> = { ok: 1, slow: 2, flaky: 3, gone: 1, dead: 3 };
    for (const sub of subscriptions) expect([sub.id, sub.receiver.at(sub.path).length]).toEqual([sub.id, expectedRequests[sub.kind]]);
    const allRequests = farm.flatMap((receiver) => receiver.received);
    expect(allRequests).toHaveLength(150 + 4 * 2 + 30 * 3 + 12 + 4 * 3);

    // One event, the same id and the very same bytes in every attempt to every subscription.
    const eventId = allRequests[0]!.body.id as string;
    expect(eventId).toMatch(/^evt_\d{4}$/);
    for (const request of allRequests) {
      expect(request.body.id).toBe(eventId);
      expect(request.headers['x-pagerly-event-id']).toBe(eventId);
      expect(request.raw).toBe(allRequests[0]!.raw);
    }

    // Each subscription's attempts, as the sandbox saw them.
    const outcomes = (id: string) => log.filter((a) => a.subscriptionId === id).map((a) => [a.attempt, a.outcome]);
    for (const sub of ofKind('flaky'))
      expect(outcomes(sub.id)).toEqual([
        [1, 'failed-status'],
        [2, 'network-error'],
        [3, 'delivered'],
      ]);
    for (const sub of ofKind('slow'))
      expect(outcomes(sub.id)).toEqual([
        [1, 'timeout'],
        [2, 'delivered'],
      ]);
    for (const sub of ofKind('gone')) expect(outcomes(sub.id)).toEqual([[1, 'gone']]);
    for (const sub of ofKind('dead'))
      expect(outcomes(sub.id)).toEqual([
        [1, 'failed-status'],
        [2, 'failed-status'],
        [3, 'failed-status'],
      ]);
    for (const sub of ofKind('ok')) expect(outcomes(sub.id)).toEqual([[1, 'delivered']]);

    // Only what failed every attempt is in `failed`.
    expect(failed.map((f) => f.subscriptionId).sort()).toEqual(
      ofKind('dead')
        .map((sub) => sub.id)
        .sort(),
    );
    for (const failure of failed) expect(failure).toMatchObject({ eventId, attempts: 3, lastOutcome: 'failed-status' });

    // 410 removed exactly those subscriptions.
    for (const sub of subscriptions) expect([sub.id, s.sandbox.world.subscriptions.has(sub.id)]).toEqual([sub.id, sub.kind !== 'gone']);

    // Bounded, but not one at a time.
    expect(gauge.max).toBeLessThanOrEqual(concurrency + slowLaneSize);
    expect(gauge.max).toBeGreaterThan(1);
    expect(gauge.now).toBe(0);

    // The next change goes to every live subscription and none of the gone ones.
    await s.sandbox.clock.advance(24 * HOUR);
    await s.sandbox.deliveries.idle();
    for (const sub of subscriptions) {
      const later = sub.receiver.at(sub.path).slice(expectedRequests[sub.kind]);
      if (sub.kind === 'gone') {
        expect([sub.id, later]).toEqual([sub.id, []]);
        continue;
      }
      const ids = new Set(later.map((request) => request.body.id as string));
      expect([sub.id, later.length > 0, ids.size, ids.has(eventId)]).toEqual([sub.id, true, 1, false]);
    }
  });

  it('serves every fast receiver while a few hanging ones are open, before they time out', async () => {
    const gauge = new InFlightGauge();
    const [receiver] = await receivers(1, (path) => (path.startsWith('/hang/') ? 'hang' : 200), { gauge, answerDelayMs: 1 });
    // A long timeout, so that the check does not depend on how busy the machine is: the test
    // ends long before it, by closing the sandbox. "Before they time out" is asserted by order
    // (no attempt has any other outcome yet, the three are still open), not by a duration.
    const timeoutMs = 10_000;
    const s = await sandbox({ delivery: { timeoutMs, retryDelaysMs: [20], concurrency: 8 } });
    // The hanging ones come first: one at a time, or slot by slot in order, everybody else would wait for them.
    const hanging = [];
    for (let i = 0; i < 3; i += 1) hanging.push(await subscribeTo(s, `${receiver!.base}/hang/${i}`));
    const fast = [];
    for (let i = 0; i < 100; i += 1) fast.push(await subscribeTo(s, `${receiver!.base}/fast/${i}`));

    await s.sandbox.clock.advance(HOUR);
    const { log } = s.sandbox.deliveries;
    const delivered = () => new Set(log.filter((a) => a.outcome === 'delivered').map((a) => a.subscriptionId));
    await until(() => delivered().size === fast.length || log.some((a) => a.outcome !== 'delivered'), 'the fast deliveries', timeoutMs);

    expect(log.filter((a) => a.outcome !== 'delivered')).toEqual([]);
    expect([...delivered()].sort()).toEqual([...fast].sort());
    // ...while the three hanging requests are still open at the receiver.
    expect(receiver!.received.filter((request) => request.path.startsWith('/hang/'))).toHaveLength(3);
    expect(gauge.now).toBe(3);
    // 8 slots, and the 3 hanging ones in the slow lane.
    expect(gauge.max).toBeLessThanOrEqual(8 + 3);
  });

  it('delivers to every good target before any hanging one times out, even with as many hanging as there are slots', async () => {
    // 16 targets that take the request and never answer used to hold all 16
    // slots for a whole time-out while every other target waited. Asserted by order, not by a
    // duration: every good target has its event while all 16 hanging requests are still open
    // and none has timed out. The figure (ms to the last good delivery) is in `npm run bench`.
    const gauge = new InFlightGauge();
    const kinds = { hang: 16, gone: 10, ok: 274 } as const;
    const [receiver] = await receivers(
      1,
      (path, n) => {
        const kind = path.split('/')[1];
        if (kind === 'hang') return n === 0 ? 'hang' : 200; // answers the retry
        return kind === 'gone' ? 410 : 200;
      },
      { gauge, answerDelayMs: 1 },
    );
    // A time-out far beyond what the good deliveries need, so that the order does not depend on
    // how busy the machine is; the defaults for concurrency (16) and the slow lane.
    const timeoutMs = 4_000;
    const s = await sandbox({ delivery: { timeoutMs, retryDelaysMs: [20] } });
    // The hanging ones first, the worst place: in order, they take every slot before anyone else.
    const subscriptions: { id: string; kind: keyof typeof kinds; path: string }[] = [];
    for (const [kind, count] of Object.entries(kinds) as [keyof typeof kinds, number][]) {
      for (let i = 0; i < count; i += 1) {
        const path = `/${kind}/${i}`;
        subscriptions.push({ id: await subscribeTo(s, receiver!.base + path), kind, path });
      }
    }
    const ofKind = (kind: keyof typeof kinds) => subscriptions.filter((sub) => sub.kind === kind);

    await s.sandbox.clock.advance(HOUR);
    const { log } = s.sandbox.deliveries;
    const answered = () => new Set(log.filter((a) => a.outcome === 'delivered' || a.outcome === 'gone').map((a) => a.subscriptionId));
    await until(() => answered().size === kinds.ok + kinds.gone || log.some((a) => a.outcome === 'timeout'), 'the good deliveries', timeoutMs * 2);

    // Every good target served, and no hanging one has timed out yet: all 16 are still open.
    expect(log.filter((a) => a.outcome === 'timeout')).toEqual([]);
    expect([...answered()].sort()).toEqual([...ofKind('ok'), ...ofKind('gone')].map((sub) => sub.id).sort());
    expect(receiver!.received.filter((request) => request.path.startsWith('/hang/'))).toHaveLength(kinds.hang);
    expect(gauge.now).toBe(kinds.hang);
    // Bounded all the same: 16 slots plus the hanging ones waiting in the slow lane.
    expect(gauge.max).toBeLessThanOrEqual(16 + kinds.hang);

    // Then the hanging ones time out and are retried (at least once), with the same event and bytes.
    await s.sandbox.deliveries.idle();
    for (const sub of ofKind('hang')) {
      expect([sub.id, log.filter((a) => a.subscriptionId === sub.id).map((a) => [a.attempt, a.outcome])]).toEqual([
        sub.id,
        [
          [1, 'timeout'],
          [2, 'delivered'],
        ],
      ]);
    }
    const eventId = receiver!.received[0]!.body.id as string;
    for (const request of receiver!.received) {
      expect(request.headers['x-pagerly-event-id']).toBe(eventId);
      expect(request.raw).toBe(receiver!.received[0]!.raw);
    }
    expect(receiver!.received).toHaveLength(kinds.ok + kinds.gone + 2 * kinds.hang);
    // 410 still removes.
    for (const sub of subscriptions) expect([sub.id, s.sandbox.world.subscriptions.has(sub.id)]).toEqual([sub.id, sub.kind !== 'gone']);
    expect(s.sandbox.deliveries.failed).toEqual([]);
  });

  it('keeps at most `concurrency` (default 16) plus `slowLaneSize` attempts open when every receiver hangs', async () => {
    const gauge = new InFlightGauge();
    const [receiver] = await receivers(1, (_path, n) => (n === 0 ? 'hang' : 204), { gauge });
    // Hanging attempts leave their slot after 20 ms, for a slow lane of 8 places; the time-out is
    // one the retries' quick answers never reach on a busy machine.
    const s = await sandbox({ delivery: { timeoutMs: 1_500, retryDelaysMs: [20], slowLaneAfterMs: 20, slowLaneSize: 8 } });
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) ids.push(await subscribeTo(s, `${receiver!.base}/hook/${i}`));

    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();

    // All 40 hung once: 16 slots and 8 places in the slow lane, so exactly 24 held at once, never more.
    expect(gauge.max).toBe(24);
    expect(receiver!.received).toHaveLength(80);
    expect(s.sandbox.deliveries.log.filter((a) => a.outcome === 'timeout')).toHaveLength(40);
    expect(
      s.sandbox.deliveries.log
        .filter((a) => a.outcome === 'delivered')
        .map((a) => a.subscriptionId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(s.sandbox.deliveries.failed).toHaveLength(0);
  });

  it('without a slow lane (`slowLaneSize: 0`), a hanging attempt holds its slot until its time-out', async () => {
    const gauge = new InFlightGauge();
    const [receiver] = await receivers(1, (_path, n) => (n === 0 ? 'hang' : 204), { gauge });
    // Long enough for every request to reach the receiver on a busy machine: a time-out that
    // fires first would count an attempt the receiver never saw.
    const s = await sandbox({ delivery: { timeoutMs: 1_000, retryDelaysMs: [20], slowLaneAfterMs: 10, slowLaneSize: 0 } });
    for (let i = 0; i < 24; i += 1) await subscribeTo(s, `${receiver!.base}/hook/${i}`);

    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    expect(gauge.max).toBe(16);
    expect(receiver!.received).toHaveLength(48);
  });

  it('idle() waits for deliveries still queued for a slot', async () => {
    const gauge = new InFlightGauge();
    const [receiver] = await receivers(1, () => 200, { gauge, answerDelayMs: 20 });
    const s = await sandbox({ delivery: { timeoutMs: 1_000, retryDelaysMs: [], concurrency: 2 } });
    for (let i = 0; i < 6; i += 1) await subscribeTo(s, `${receiver!.base}/hook/${i}`);

    await s.sandbox.clock.advance(HOUR);
    await s.sandbox.deliveries.idle();
    // Three rounds of two: idle() came back only after the last round.
    expect(receiver!.received).toHaveLength(6);
    expect(s.sandbox.deliveries.log.map((a) => a.outcome)).toEqual(Array(6).fill('delivered'));
    expect(gauge.max).toBe(2);
  });

  it('refuses a concurrency or slow lane that is not a whole number, or negative', async () => {
    await expect(startSandbox({ delivery: { concurrency: 0 } })).rejects.toThrow(/concurrency must be a whole number of at least 1/);
    await expect(startSandbox({ delivery: { slowLaneSize: 1.5 } })).rejects.toThrow(/slowLaneSize must be a whole number of at least 0, not 1.5/);
    await expect(startSandbox({ delivery: { slowLaneAfterMs: -1 } })).rejects.toThrow(/slowLaneAfterMs must be a number of milliseconds of at least 0, not -1/);
  });
});
