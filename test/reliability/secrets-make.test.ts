import type { Loose } from '../support/zapier-neutral-form.ts';
import { describe, expect, it } from '@jest/globals';
import { useSecretWorld } from './secret-harness.ts';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import { appFromFiles } from '../../make-app/interpreter/runner/app-folder.ts';
import type { LogEntry } from '../../make-app/interpreter/runner/execute.ts';
import { MakeError } from '../../make-app/interpreter/runner/make-error.ts';
import { makeRunner, type MakeRunner } from '../../make-app/interpreter/runner/runner.ts';
import { DEFAULT_BASE_URL } from '../../shared/settings.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { HOUR, startReceiver, type Receiver } from '../sandbox/support.ts';
import { startKeyProxy } from '../support/key-proxy.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { makeComponents, whereOf } from './make-components.ts';
import { faultCases, keysSent, SECRET_KEY, SECRET_USER_KEY, SECRETS, type FaultCase, expectedAt } from './secret-world.ts';

/**
 * Every component of the generated Make app through the runner (connection, RPC, every module,
 * webhook attach / receive / detach) with a key the sandbox accepts, then every failure path.
 * Searched for the key: what each returned or threw (message, stack, JSON, util.inspect), the
 * runner's log (what Make would log, after `log.sanitize`), what was printed, the temp folder.
 */

let receiver: Receiver;
let runner: MakeRunner;
const runnerLog: LogEntry[] = [];
/** Everything but the answers that quote the key (those get a watch each, below). */
const watch = new LeakWatch();

const world = useSecretWorld({
  start: async ({ proxy }) => {
    receiver = await startReceiver();
    runner = makeRunner(appFromFiles(generateMakeApp()), { origin: { from: DEFAULT_BASE_URL, to: proxy.url }, log: runnerLog, timeoutMs: 5_000 });
  },
  stop: async () => {
    await receiver.close();
  },
});

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function attempt(into: LeakWatch, place: string, call: () => Promise<unknown>) {
  const mark = world.proxy.requests.length;
  let outcome: Outcome;
  try {
    const value = await call();
    into.value(`${place} → returned`, value);
    outcome = { ok: true, value };
  } catch (error) {
    into.value(`${place} → threw`, error);
    outcome = { ok: false, error };
  }
  return { outcome, sent: keysSent(world.proxy.since(mark)) };
}

const typeOf = (outcome: Outcome) =>
  outcome.ok ? 'no error' : outcome.error instanceof MakeError ? outcome.error.type : `not a MakeError: ${String(outcome.error)}`;
const requesting = makeComponents.filter((component) => component.endpoint !== undefined);

/** Components whose answer to a fault is not an error, by design. */
function answersInstead(component: string, fault: FaultCase, endpoint?: EndpointKey): 'success' | undefined {
  // Make takes no 4xx for a success (Custom apps › Error handling), so no 404 is listed here.
  // The key check takes any 2xx for a checked key, whatever its body (docs/make.md, On Make's terms);
  // JSON that does not parse stays a DataError (Make cannot read it).
  const answer = fault.answer('');
  const json = answer.contentType === undefined || answer.contentType.includes('json'); // the sandbox's faults default to JSON
  if (answer.status < 300 && !json && component === 'connection pagerly') return 'success';
  // An action's write is valid on its status alone (assumption `created-id`, write-answer-iml.ts).
  if (answer.status < 300 && !json && component.startsWith('module ') && endpoint !== undefined && endpoints[endpoint].successWhateverTheBody) return 'success';
  // "Make an API call" returns any answer below 400 as it came, JSON or not.
  if (fault.answer('').status < 400 && fault.answer('').contentType?.includes('html') && component === 'module makeApiCall') return 'success';
  return undefined;
}

/** The standalone requests (no Base): they carry their own `valid`, tested on their own below. */
const acceptsHtml = new Set(['connection pagerly', 'webhook onCallChanges attach', 'webhook onCallChanges detach']);

describe('the Make app never shows the key', () => {
  it('covers every component of the generated app', () => {
    const manifest = appFromFiles(generateMakeApp()).manifest.components;
    const expected = [
      ...Object.keys(manifest.connection).map((id) => `connection ${id}`),
      ...Object.keys(manifest.rpc).map((id) => `rpc ${id}`),
      ...Object.keys(manifest.module).map((id) => `module ${id}`),
      ...Object.keys(manifest.webhook).flatMap((id) => ['attach', 'receive', 'detach'].map((step) => `webhook ${id} ${step}`)),
    ];
    expect(makeComponents.map((c) => c.name).sort()).toEqual(expected.sort());
    expect(expected).toHaveLength(16);
  });

  it('every component succeeds, sending the key in X-APIKEY only', async () => {
    const connection = { apiKey: SECRET_KEY };
    const run = async (place: string, call: () => Promise<unknown>, requests: number) => {
      const { outcome, sent } = await attempt(watch, place, call);
      expect({ place, error: outcome.ok ? undefined : String(outcome.error) }).toEqual({ place, error: undefined });
      expect({ place, sent }).toEqual({ place, sent: Array(requests).fill(SECRET_KEY) });
      return (outcome.ok ? outcome.value : undefined) as Loose & Loose[];
    };
    expect(await run('connection', () => runner.testConnection(connection), 1)).toEqual({
      data: undefined,
      label: { type: 'text', value: 'Grace Hopper (Acme)' },
    });
    expect(await run('rpc listTeams', () => runner.rpc('listTeams', { connection }), 1)).toHaveLength(3);
    const [incident] = await run(
      'createIncident',
      () => runner.module('createIncident', { connection, parameters: { title: 'Checkout down', severity: 'P1', teamname: 'Platform' } }),
      1,
    );
    expect(incident).toMatchObject({ severity: 'P1', status: 'triggered' });
    expect(
      await run(
        'createIncident (resolve)',
        () => runner.module('updateIncident', { connection, parameters: { id: incident!.id, title: 'Checkout down', status: 'resolved' } }),
        1,
      ),
    ).toMatchObject([{ status: 'resolved' }]);
    const email = 'make.secret@acme.example';
    expect(
      await run(
        'upsertDirectoryEntry',
        () => runner.module('createDirectoryEntry', { connection, parameters: { email, name: 'Make Secret', phone: '+1 (415) 555-0155' } }),
        1,
      ),
    ).toMatchObject([{ phone: '+14155550155' }]);
    expect(
      await run('updateDirectoryPhone', () => runner.module('updateDirectoryPhone', { connection, parameters: { email, phone: '+14155550156' } }), 1),
    ).toMatchObject([{ phone: '+14155550156' }]);
    expect(await run('changeDirectoryRole', () => runner.module('changeDirectoryRole', { connection, parameters: { email, role: 'admin' } }), 1)).toMatchObject(
      [{ role: 'admin' }],
    );
    expect(await run('getDirectoryEntry', () => runner.module('getDirectoryEntry', { connection, parameters: { email } }), 1)).toMatchObject([
      { name: 'Make Secret' },
    ]);
    expect(await run('removeDirectoryEntry', () => runner.module('removeDirectoryEntry', { connection, parameters: { email } }), 1)).toEqual([
      { email, removed: true },
    ]);
    expect(await run('listOnCallUsers', () => runner.module('listOnCallUsers', { connection, parameters: { teamname: 'Payments' } }), 1)).toHaveLength(2);
    expect(
      await run('makeApiCall', () => runner.module('makeApiCall', { connection, parameters: { url: '/pagerly/o/zapier/allteams', method: 'GET' } }), 1),
    ).toMatchObject([{ statusCode: 200 }]);
    expect(await run('watchOnCallChanges', () => runner.module('watchOnCallChanges', { connection, parameters: { teamname: 'Platform' } }), 0)).toEqual([]);
    const stored = await run(
      'attach',
      () => runner.attach('onCallChanges', { connection, parameters: { teamname: 'Platform' }, webhook: { id: 'make-hook-1', url: receiver.url } }),
      1,
    );
    expect(stored.externalHookId).toMatch(/^sub_/);
    await world.running.sandbox.clock.advance(HOUR);
    await world.running.sandbox.deliveries.idle();
    const delivered = receiver.received.find((hook) => hook.body.team?.name === 'Platform');
    expect(delivered).toBeDefined();
    expect(await run('receive', async () => runner.receive('onCallChanges', { parameters: { teamname: 'Platform' }, body: delivered!.body }), 0)).toMatchObject(
      [{ team: { name: 'Platform' } }],
    );
    await run('detach', () => runner.detach('onCallChanges', { connection, parameters: {}, webhook: stored }), 1);
    expect(world.running.sandbox.world.subscriptions.size).toBe(0);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  describe.each(faultCases.map((fault) => [fault.name, fault] as const))('every component that calls the service, when it answers: %s', (_name, fault) => {
    const faultWatch = new LeakWatch();

    it(`ends in ${fault.expected.make} (or its documented answer), having sent the key`, async () => {
      for (const component of requesting) {
        world.running.sandbox.faults.clear();
        world.running.sandbox.faults.inject({ ...whereOf(component.endpoint!), ...fault.answer(SECRET_KEY), times: 1 });
        // A raw API call's result is the service's own answer: if the service put the key in a
        // 200 body, the call returns it, like any HTTP client would. Only its errors are watched.
        const into = answersInstead(component.name, fault, component.endpoint) === 'success' && fault.echoesKey ? new LeakWatch() : faultWatch;
        const { outcome, sent } = await attempt(into, `${component.name} (${fault.name})`, () => component.run(runner, SECRET_KEY));
        expect({ component: component.name, sent }).toEqual({ component: component.name, sent: Array(1 + (component.readsFirst ?? 0)).fill(SECRET_KEY) });
        if (answersInstead(component.name, fault, component.endpoint) === 'success')
          expect({ component: component.name, ok: outcome.ok }).toEqual({ component: component.name, ok: true });
        else {
          // The key check's own rule (a 403 is a refused key), except that Make cannot read a
          // "JSON" answer that does not parse, whatever the status (answersInstead above).
          const atKeyCheck = expectedAt(fault, component.endpoint!).make;
          const expected = atKeyCheck === 'no error' ? fault.expected.make : atKeyCheck;
          expect({ component: component.name, type: typeOf(outcome) }).toEqual({ component: component.name, type: expected });
        }
      }
      world.running.sandbox.faults.clear();
    });

    // The generated app takes the key out of the service's text and body excerpts (replace()
    // in make-app/generator/response-directives.ts), and the runner redacts JSON that does not parse.
    it('no error holds the key', () => {
      expect(faultWatch.size).toBeGreaterThan(0);
      expect(faultWatch.leaks(SECRETS)).toEqual([]);
    });
  });

  // Webhook attach and detach do not use the Base: their own `valid` makes a 200 that is not
  // JSON (a captive portal, a wrong base URL) a DataError, so attach never stores a hook without
  // an id and detach never reports a removal a proxy answered. The key check takes any 2xx.
  it('a non-JSON 200 to attach and detach is a DataError, to the connection check a checked key', async () => {
    const html = faultCases.find((fault) => fault.name === 'HTML instead of JSON (200)')!;
    const types: Record<string, string> = {};
    for (const component of makeComponents.filter((c) => acceptsHtml.has(c.name))) {
      world.running.sandbox.faults.clear();
      world.running.sandbox.faults.inject({ ...whereOf(component.endpoint!), ...html.answer(SECRET_KEY), times: 1 });
      const { outcome } = await attempt(new LeakWatch(), component.name, () => component.run(runner, SECRET_KEY));
      types[component.name] = typeOf(outcome);
    }
    world.running.sandbox.faults.clear();
    expect(types).toEqual({ 'connection pagerly': 'no error', 'webhook onCallChanges attach': 'DataError', 'webhook onCallChanges detach': 'DataError' });
  });

  it('a network failure on every component that calls the service: ConnectionError, without the key', async () => {
    for (const component of requesting) {
      world.proxy.breakNext(1);
      const { outcome, sent } = await attempt(watch, `${component.name} (connection destroyed)`, () => component.run(runner, SECRET_KEY));
      expect({ component: component.name, type: typeOf(outcome) }).toEqual({ component: component.name, type: 'ConnectionError' });
      expect({ component: component.name, sent }).toEqual({ component: component.name, sent: [SECRET_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it("bad input and the service's own refusals (403 for a non-admin, 404) hold no key", async () => {
    const user = { apiKey: SECRET_USER_KEY };
    const cases: [string, () => Promise<unknown>, string][] = [
      ['createIncident (empty title)', () => runner.module('createIncident', { connection: user, parameters: { title: '' } }), 'DataError'],
      [
        'updateDirectoryPhone (bad phone)',
        () => runner.module('updateDirectoryPhone', { connection: user, parameters: { email: 'katherine@acme.example', phone: 'call me' } }),
        'DataError',
      ],
      [
        'attach (ftp URL)',
        () => runner.attach('onCallChanges', { connection: user, parameters: {}, webhook: { id: 'h', url: 'ftp://example.com/x' } }),
        'DataError',
      ],
      [
        'upsertDirectoryEntry (not an admin)',
        () => runner.module('createDirectoryEntry', { connection: user, parameters: { email: 'x@acme.example', name: 'X' } }),
        'InvalidConfigurationError',
      ],
      [
        'removeDirectoryEntry (not an admin)',
        () => runner.module('removeDirectoryEntry', { connection: user, parameters: { email: 'katherine@acme.example' } }),
        'InvalidConfigurationError',
      ],
      ['listOnCallUsers (unknown team)', () => runner.module('listOnCallUsers', { connection: user, parameters: { teamname: 'No such team' } }), 'DataError'],
      ['updateIncident (unknown id)', () => runner.module('updateIncident', { connection: user, parameters: { id: 'inc_404', title: 'x' } }), 'DataError'],
      [
        'detach (unknown id: already gone)',
        () => runner.detach('onCallChanges', { connection: user, parameters: {}, webhook: { externalHookId: 'sub_404' } }),
        'DataError',
      ],
    ];
    for (const [place, call, expected] of cases) {
      const { outcome, sent } = await attempt(watch, place, call);
      expect({ place, type: typeOf(outcome) }).toEqual({ place, type: expected });
      expect({ place, sent }).toEqual({ place, sent: [SECRET_USER_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  // "Make an API call" always calls a path under Pagerly's base: an absolute URL given to it
  // never receives the connection's key.
  it("makeApiCall never sends the connection's key to a host other than Pagerly's", async () => {
    const elsewhere = await startKeyProxy(world.running.url);
    try {
      await runner
        .module('makeApiCall', { connection: { apiKey: SECRET_KEY }, parameters: { url: `${elsewhere.url}/pagerly/o/zapier/allteams`, method: 'GET' } })
        .catch(() => undefined);
      expect(keysSent(elsewhere.requests)).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it("the runner's log, what was printed and the temp folder hold no key", () => {
    expect(runnerLog.length).toBeGreaterThan(requesting.length * (faultCases.length + 2));
    // log.sanitize replaced the header in every entry (so the log did have the header to hide).
    expect(runnerLog.every((entry) => entry.headers['X-APIKEY'] === '[sanitized]')).toBe(true);
    runnerLog.forEach((entry, index) => {
      watch.value(`runner log #${index}`, entry);
    });
    watch.text('stdout, stderr and console', world.output.text);
    watch.files('temp folder', world.temp.dir);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });
});
