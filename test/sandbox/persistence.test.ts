import { afterEach, describe, expect, it } from '@jest/globals';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StateFileError, type PersistedState } from '../../sandbox/index.ts';
import {
  demoKeys,
  demoStateFile,
  HOUR,
  pendingDelivery,
  platformEvent,
  startReceiver,
  startSandbox,
  temporaryFolder,
  tinySeed,
  until,
  type Receiver,
  type Running,
} from './support.ts';

/** A state file's text with nothing in it but these pending deliveries. */
const emptyStateWithPending = (pending: unknown[]) =>
  JSON.stringify({ format: 'pagerly-sandbox-state', version: 1, savedAt: '2026-11-02T08:00:00Z', ids: {}, subscriptions: [], onCall: {}, events: {}, pending });

/** Option `persistence`: what a restart on the same state file keeps. */
describe('sandbox: state file', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function folder() {
    const made = await temporaryFolder();
    cleanups.push(() => made.remove());
    return made.path;
  }

  async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<Running> {
    const s = await startSandbox(options);
    cleanups.push(() => s.sandbox.close());
    return s;
  }

  async function receiver(answer: (n: number) => number | 'hang'): Promise<Receiver> {
    const started = await startReceiver(answer);
    cleanups.push(() => started.close());
    return started;
  }

  const subscribe = async (s: Running, url: string, teamname?: string) => {
    const answer = await s.call('/o/zapier/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url, ...(teamname ? { teamname } : {}) } });
    expect(answer.status).toBe(201);
    return answer.json.id as string;
  };

  const readState = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as PersistedState;

  it('writes through no link planted at its partial file (a guessable name, in a folder others may share)', async () => {
    const dir = await folder();
    const victim = join(dir, 'victim');
    await writeFile(victim, 'precious\n');
    await symlink(victim, join(dir, `.state.json.${process.pid}.tmp`));
    const s = await sandbox({ persistence: { file: join(dir, 'state.json') } });
    const id = await subscribe(s, 'https://hooks.example.com/x');
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await readState(join(dir, 'state.json'))).subscriptions.map((sub) => sub.id)).toEqual([id]);
  });

  it("answers in the service's error shape when the state cannot be saved", async () => {
    const dir = await folder();
    const s = await sandbox({ persistence: { file: join(dir, 'state.json') } });
    await rm(dir, { recursive: true, force: true }); // the folder vanishes under the running sandbox
    const answer = await s.call('/o/zapier/subscribe', { method: 'POST', key: demoKeys.acmeUser, body: { url: 'https://hooks.example.com/x' } });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toEqual([{ Error: expect.stringMatching(/^The sandbox could not save its state: /) }]);
  });

  it('resumes deliveries pending at close() after a restart, with the same event ids and bodies', async () => {
    const file = join(await folder(), 'state.json');
    let healthy = false;
    const failing = await receiver(() => (healthy ? 200 : 500));
    const hanging = await receiver(() => (healthy ? 200 : 'hang'));
    const retryDelayMs = 800;
    const first = await sandbox({ persistence: { file }, delivery: { timeoutMs: 10_000, retryDelaysMs: [retryDelayMs] } });
    const everyTeam = await subscribe(first, failing.url);
    const platformOnly = await subscribe(first, hanging.url, 'Platform');
    // Written before the answer came back.
    expect((await readState(file)).subscriptions.map((sub) => sub.id)).toEqual([everyTeam, platformOnly]);

    // 09:00: Platform and Payments hand over. Two events to one receiver, which fails them
    // (retry due in retryDelayMs); one to the other, which never answers (still in flight).
    await first.sandbox.clock.advance(HOUR);
    await until(() => first.sandbox.deliveries.log.length === 2 && hanging.received.length === 1, 'the first attempts');
    const failedAt = Date.now();
    await first.sandbox.close();
    const closedAt = Date.now();
    expect(closedAt - failedAt).toBeLessThan(retryDelayMs / 2);
    expect(failing.received).toHaveLength(2);
    expect(hanging.received).toHaveLength(1);

    // The file: both events, three pending deliveries, with attempt numbers and due times.
    const kept = await readState(file);
    const [platformEvent, paymentsEvent] = ['Platform', 'Payments'].map((team) => failing.received.find((hook) => hook.body.team.name === team)!.body);
    expect(kept).toMatchObject({ format: 'pagerly-sandbox-state', version: 1, ids: { sub: 2, evt: 3 } }); // evt_0003: Globex's Operations, which nobody here hears
    expect(kept.events).toEqual({ [platformEvent.id]: platformEvent, [paymentsEvent.id]: paymentsEvent });
    const pending = [...kept.pending].sort((a, b) => `${a.subscriptionId}${a.eventId}`.localeCompare(`${b.subscriptionId}${b.eventId}`));
    expect(pending).toEqual([
      { eventId: platformEvent.id, subscriptionId: everyTeam, url: failing.url, nextAttempt: 2, dueAt: expect.any(String) },
      { eventId: paymentsEvent.id, subscriptionId: everyTeam, url: failing.url, nextAttempt: 2, dueAt: expect.any(String) },
      // Aborted in flight: no outcome, so the same attempt again, due at once.
      { eventId: platformEvent.id, subscriptionId: platformOnly, url: hanging.url, nextAttempt: 1, dueAt: expect.any(String) },
    ]);
    const dueAt = pending.map((job) => Date.parse(job.dueAt));
    expect(dueAt[0]).toBeGreaterThanOrEqual(failedAt - 50 + retryDelayMs);
    expect(dueAt[2]).toBeLessThanOrEqual(closedAt);
    expect(kept.onCall['team_platform']?.map((user) => user.id)).toEqual(['usr_edsger']);

    // A new sandbox on the same file; the receivers are fine now.
    healthy = true;
    const second = await sandbox({ persistence: { file }, delivery: { timeoutMs: 1_000, retryDelaysMs: [20, 40] } });
    await second.sandbox.deliveries.idle();

    const resent = (receiverOf: Receiver, before: number) => receiverOf.received.slice(before);
    // The one that was in flight went again at once; the retries waited for their time.
    const [again] = resent(hanging, 1);
    expect(again?.raw).toBe(hanging.received[0]?.raw);
    expect(again?.headers['x-pagerly-event-id']).toBe(platformEvent.id);
    const retried = resent(failing, 2);
    expect(retried.map((hook) => hook.body.id).sort()).toEqual([platformEvent.id, paymentsEvent.id].sort());
    for (const hook of retried) {
      expect(hook.raw).toBe(failing.received.find((earlier) => earlier.body.id === hook.body.id)?.raw);
      expect(hook.headers['x-pagerly-event-id']).toBe(hook.body.id);
      expect(hook.at).toBeGreaterThanOrEqual(Math.min(dueAt[0]!, dueAt[1]!) - 5);
    }
    expect(again!.at).toBeLessThan(Math.min(dueAt[0]!, dueAt[1]!));
    expect(second.sandbox.deliveries.log.map((a) => [a.subscriptionId, a.attempt, a.outcome]).sort()).toEqual([
      [everyTeam, 2, 'delivered'],
      [everyTeam, 2, 'delivered'],
      [platformOnly, 1, 'delivered'],
    ]);

    // Subscriptions and id counters survived: a new subscription and a new event get new ids.
    expect([...second.sandbox.world.subscriptions.values()].map((sub) => [sub.id, sub.url])).toEqual([
      [everyTeam, failing.url],
      [platformOnly, hanging.url],
    ]);
    const third = await subscribe(second, failing.url, 'Mobile');
    expect(third).toBe('sub_0003');
    // The clock starts at 08:00 again; 09:00 is the set already announced, so no event.
    await second.sandbox.clock.advance(HOUR);
    await second.sandbox.deliveries.idle();
    expect(failing.received).toHaveLength(4);
    // 21:00: Payments hands over; the event has a new id.
    await second.sandbox.clock.advance(12 * HOUR);
    await second.sandbox.deliveries.idle();
    expect(failing.received.slice(4).map((hook) => [hook.body.id, hook.body.team.name, hook.body.previous.map((u: { id: string }) => u.id)])).toEqual([
      ['evt_0004', 'Payments', paymentsEvent.current.map((u: { id: string }) => u.id)],
    ]);

    // Nothing pending is left in the file once delivered.
    await second.sandbox.close();
    const after = await readState(file);
    expect(after.pending).toEqual([]);
    expect(after.events).toEqual({});
    expect(after.subscriptions.map((sub) => sub.id)).toEqual([everyTeam, platformOnly, third]);
    expect(after.ids).toMatchObject({ sub: 3, evt: 4 });
    // Only the state file: the temporary files were renamed over it.
    expect(await readdir(join(file, '..'))).toEqual(['state.json']);
  });

  it('raises a handover that happened while the sandbox was down, and keeps a 410 removal', async () => {
    const file = join(await folder(), 'state.json');
    const gone = await receiver(() => 410);
    const listening = await receiver(() => 200);
    const first = await sandbox({ persistence: { file } });
    const goneId = await subscribe(first, gone.url, 'Platform');
    const listeningId = await subscribe(first, listening.url, 'Platform');
    await first.sandbox.checkOnCallChanges();
    await first.sandbox.close();
    expect(listening.received).toHaveLength(0);

    // Back at 09:30: the 09:00 handover of Platform was missed while down.
    const second = await sandbox({ persistence: { file }, clock: { mode: 'fixed', start: '2026-11-02T09:30:00Z' } });
    await second.sandbox.checkOnCallChanges();
    await second.sandbox.deliveries.idle();
    expect(listening.received.map((hook) => [hook.body.team.name, hook.body.previous[0]?.id, hook.body.current[0]?.id])).toEqual([
      ['Platform', 'usr_alan', 'usr_edsger'],
    ]);
    expect(gone.received).toHaveLength(1);
    expect([...second.sandbox.world.subscriptions.keys()]).toEqual([listeningId]);
    await second.sandbox.close();

    // Once only, and the 410 stays: a third start raises nothing and sends nothing to the gone one.
    const third = await sandbox({ persistence: { file }, clock: { mode: 'fixed', start: '2026-11-02T09:30:00Z' } });
    await third.sandbox.checkOnCallChanges();
    await third.sandbox.deliveries.idle();
    expect(listening.received).toHaveLength(1);
    expect(gone.received).toHaveLength(1);
    expect(third.sandbox.world.subscriptions.has(goneId)).toBe(false);
  });

  it('keeps the subscriptions of every platform across a restart (Zapier and Make)', async () => {
    const file = join(await folder(), 'state.json');
    const listening = await receiver(() => 200);
    const first = await sandbox({ persistence: { file } });
    const ids: string[] = [];
    for (const platform of ['zapier', 'make']) {
      const answer = await first.call(`/o/${platform}/subscribe`, {
        method: 'POST',
        key: demoKeys.acmeUser,
        body: { url: listening.url, teamname: 'Platform' },
      });
      expect(answer.status).toBe(201);
      ids.push(answer.json.id as string);
    }
    await first.sandbox.close();
    const second = await sandbox({ persistence: { file } });
    expect([...second.sandbox.world.subscriptions.values()].map((sub) => [sub.id, sub.platform])).toEqual([
      [ids[0], 'zapier'],
      [ids[1], 'make'],
    ]);
  });

  it('replaces the file atomically: a reader never sees a partial state', async () => {
    const file = join(await folder(), 'state.json');
    const s = await sandbox({ persistence: { file }, rateLimit: false });
    let writing = true;
    let reads = 0;
    const partial: string[] = [];
    const reader = (async () => {
      while (writing) {
        const text = await readFile(file, 'utf8');
        reads += 1;
        try {
          JSON.parse(text);
        } catch {
          partial.push(text.slice(-40));
        }
      }
    })();
    try {
      // Every subscribe is a write of a growing file (long URLs make it a few hundred kB).
      const padding = 'x'.repeat(4_000);
      for (let i = 0; i < 120; i += 1) await subscribe(s, `http://127.0.0.1:9/${padding}/${i}`);
    } finally {
      writing = false;
      await reader;
    }
    expect(reads).toBeGreaterThan(20);
    expect(partial).toEqual([]);
    expect((await readState(file)).subscriptions).toHaveLength(120);
    expect(await readdir(join(file, '..'))).toEqual(['state.json']);
  });

  it('refuses a corrupt or unusable state file with an error naming it, and leaves the file alone', async () => {
    const dir = await folder();
    const cases: [string, string, RegExp][] = [
      ['truncated.json', '{"format": "pagerly-sandbox-state", "version": 1, "subscr', /is corrupt: not JSON/],
      ['empty.json', '', /is corrupt: not JSON/],
      ['wrong-shape.json', emptyStateWithPending([{ eventId: 'evt_0001' }]), /is corrupt or not a sandbox state file: pending\.0\.subscriptionId/],
      [
        'dangling.json',
        emptyStateWithPending([{ eventId: 'evt_0009', subscriptionId: 'sub_0001', url: 'http://127.0.0.1:9/', nextAttempt: 1, dueAt: '2026-11-02T08:00:00Z' }]),
        /names the event "evt_0009", which is not in events/,
      ],
      ['other.json', JSON.stringify({ hello: 'world' }), /is corrupt or not a sandbox state file: format must be "pagerly-sandbox-state"/],
    ];
    for (const [name, content, problem] of cases) {
      const file = join(dir, name);
      await writeFile(file, content);
      const failure = await startSandbox({ persistence: { file } }).then(
        (s) => s.sandbox.close().then(() => undefined),
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StateFileError);
      expect((failure as Error).message).toContain(file);
      expect((failure as Error).message).toMatch(problem);
      expect(await readFile(file, 'utf8')).toBe(content);
    }

    // A folder where the file should be: unreadable.
    await expect(startSandbox({ persistence: { file: dir } })).rejects.toThrow(new RegExp(`^Sandbox state file ${dir}: cannot be read`));
  });

  it('refuses a state file written for another world', async () => {
    const file = join(await folder(), 'state.json');
    const first = await sandbox({ persistence: { file } });
    await subscribe(first, 'http://127.0.0.1:9/hook', 'Platform');
    await first.sandbox.close();
    const before = await readFile(file, 'utf8');
    await expect(startSandbox({ seed: tinySeed, persistence: { file } })).rejects.toThrow(
      /does not fit the seed: subscription "sub_0001" is for the team "team_platform" of organization "org_acme"/,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('reports pending deliveries whose subscription is not in the file, delivers them nowhere, and keeps them', async () => {
    const file = join(await folder(), 'state.json');
    const live = await receiver(() => 200);
    const elsewhere = await receiver(() => 200);
    const [event, job] = [platformEvent, pendingDelivery];
    const orphans = [job('evt_0002', 'sub_0009', elsewhere.url), job('evt_0003', 'sub_0009', elsewhere.url)];
    await writeFile(
      file,
      JSON.stringify(
        demoStateFile(live.url, {
          events: { evt_0001: event('evt_0001'), evt_0002: event('evt_0002'), evt_0003: event('evt_0003') },
          pending: [job('evt_0001', 'sub_0001', live.url), ...orphans],
        }),
      ),
    );

    const first = await sandbox({ persistence: { file } });
    // Reported: how many, and which.
    expect(first.sandbox.kept).toEqual({ resumed: 1, orphans });
    await first.sandbox.deliveries.idle();
    expect(live.received.map((hook) => hook.body.id)).toEqual(['evt_0001']);
    // Written again after a change (a new subscription) and at close: the orphans stay, with their events.
    await subscribe(first, live.url, 'Mobile');
    await first.sandbox.close();
    expect(elsewhere.received).toEqual([]);
    const kept = await readState(file);
    expect(kept.pending).toEqual(orphans);
    expect(Object.keys(kept.events).sort()).toEqual(['evt_0002', 'evt_0003']);

    // Reported again at the next start; once their subscription is back in the file, they go out.
    const again = await sandbox({ persistence: { file } });
    expect(again.sandbox.kept?.orphans).toEqual(orphans);
    await again.sandbox.close();
    const restored = await readState(file);
    await writeFile(
      file,
      JSON.stringify({ ...restored, subscriptions: [...restored.subscriptions, { ...restored.subscriptions[0]!, id: 'sub_0009', url: elsewhere.url }] }),
    );
    const third = await sandbox({ persistence: { file } });
    expect(third.sandbox.kept).toEqual({ resumed: 2, orphans: [] });
    await third.sandbox.deliveries.idle();
    expect(elsewhere.received.map((hook) => hook.body.id).sort()).toEqual(['evt_0002', 'evt_0003']);
  });

  it('does not keep deliveries of a subscription removed while they waited', async () => {
    const file = join(await folder(), 'state.json');
    const failing = await receiver(() => 500);
    const s = await sandbox({ persistence: { file }, delivery: { timeoutMs: 1_000, retryDelaysMs: [60_000] } });
    const id = await subscribe(s, failing.url, 'Platform');
    await s.sandbox.clock.advance(HOUR);
    await until(() => s.sandbox.deliveries.log.length === 1, 'the first attempt');
    const unsubscribed = await s.call(`/o/zapier/subscribe/${id}`, { method: 'DELETE', key: demoKeys.acmeUser });
    expect(unsubscribed.status).toBeLessThan(300);
    await s.sandbox.close();
    // The retry was for nobody any more: not pending, so not an orphan at the next start either.
    expect((await readState(file)).pending).toEqual([]);
  });

  it('refuses a clock past 9999 at the control with a 400, so the file it writes always loads again', async () => {
    const file = join(await folder(), 'state.json');
    const s = await sandbox({ persistence: { file } });
    const last = await s.call('/_sandbox/clock', { method: 'POST', body: { set: '9999-12-31T23:59:59Z' } });
    expect(last.status).toBe(200);
    const past = await s.call('/_sandbox/clock', { method: 'POST', body: { advanceMs: 1_000 } });
    expect([past.status, past.json]).toEqual([
      400,
      [{ Error: expect.stringMatching(/^Cannot advance the clock by 1000 ms: the time would leave the years 0000 to 9999 /) }],
    ]);
    const far = await s.call('/_sandbox/clock', { method: 'POST', body: { set: '+010000-01-01T00:00:00Z' } });
    expect(far.status).toBe(400);
    expect((await s.call('/_sandbox/clock')).json.now).toBe('9999-12-31T23:59:59.000Z');
    await subscribe(s, 'http://127.0.0.1:9/hook', 'Platform');
    await s.sandbox.close();

    const again = await sandbox({ persistence: { file } });
    expect([...again.sandbox.world.subscriptions.values()].map((sub) => sub.created_at)).toEqual(['9999-12-31T23:59:59.000Z']);
    await again.sandbox.close();

    // A real clock set just before the end may still cross it; such a file loads too.
    const crossed = await readState(file);
    await writeFile(
      file,
      JSON.stringify({ ...crossed, subscriptions: crossed.subscriptions.map((sub) => ({ ...sub, created_at: '+010000-01-01T00:00:01.000Z' })) }),
    );
    const third = await sandbox({ persistence: { file } });
    expect(third.sandbox.world.subscriptions.size).toBe(1);
  });

  it('writes nothing without `persistence`, and a new sandbox starts afresh', async () => {
    const dir = await folder();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const failing = await receiver(() => 500);
      const first = await sandbox({ delivery: { timeoutMs: 200, retryDelaysMs: [60_000] } });
      await subscribe(first, failing.url, 'Platform');
      await first.sandbox.clock.advance(HOUR);
      await until(() => first.sandbox.deliveries.log.length === 1, 'the first attempt');
      await first.sandbox.close();

      const second = await sandbox({});
      expect(second.sandbox.world.subscriptions.size).toBe(0);
      expect(await subscribe(second, failing.url)).toBe('sub_0001');
      await second.sandbox.deliveries.idle();
      expect(failing.received).toHaveLength(1);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });
});
