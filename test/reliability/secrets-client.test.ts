import { describe, expect, it } from '@jest/globals';
import { useSecretWorld } from './secret-harness.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { isPagerlyError } from '../../shared/errors.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { faultCases, keysSent, SECRET_KEY, SECRET_USER_KEY, SECRETS, expectedAt } from './secret-world.ts';

/**
 * The typed client (shared/node-client.ts) with a recognisable key the sandbox accepts: every
 * endpoint, then every failure path. What it returns and throws (message, stack, JSON,
 * util.inspect), what the process printed and what landed in the temp folder must not hold the
 * key; the receiving proxy in front of the sandbox shows the key did go out, in X-APIKEY.
 */

const watch = new LeakWatch();

const world = useSecretWorld();

const clientWith = (apiKey: string) => createNodeClient({ apiKey, baseUrl: world.proxy.url, retries: 0, timeoutMs: 5_000 });

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Runs one call, adds what it returned or threw to the watch, and returns the keys it sent. */
async function attempt(place: string, call: () => Promise<unknown>): Promise<{ outcome: Outcome; sent: (string | undefined)[] }> {
  const mark = world.proxy.requests.length;
  let outcome: Outcome;
  try {
    const value = await call();
    watch.value(`${place} → returned`, value);
    outcome = { ok: true, value };
  } catch (error) {
    watch.value(`${place} → threw`, error);
    outcome = { ok: false, error };
  }
  return { outcome, sent: keysSent(world.proxy.since(mark)) };
}

const errorName = (outcome: Outcome) =>
  outcome.ok ? 'no error' : isPagerlyError(outcome.error) ? outcome.error.name : `not a PagerlyError: ${String(outcome.error)}`;

/** A valid input for every endpoint (the compiler insists on all 13). */
const inputs = {
  checkApiKey: {},
  listTeams: {},
  listOnCallUsers: { teamname: 'Platform' },
  createOrUpdateIncident: { title: 'Disk full on db-1', severity: 'P2', teamname: 'Platform' },
  getDirectoryEntry: { email: 'katherine@acme.example' },
  upsertDirectoryEntry: { email: 'secret.test@acme.example', name: 'Secret Test', phone: '+1 415 555 0177' },
  updateDirectoryPhone: { email: 'secret.test@acme.example', phone: '+14155550178' },
  changeDirectoryRole: { email: 'secret.test@acme.example', role: 'admin' },
  removeDirectoryEntry: { email: 'secret.test@acme.example' },
  subscribeZapierHook: { url: 'https://hooks.zapier.example/secret-test', teamname: 'Platform' },
  subscribeMakeHook: { url: 'https://hook.make.example/secret-test' },
  unsubscribeZapierHook: { id: 'sub_9999' },
  unsubscribeMakeHook: { id: 'sub_9998' },
} satisfies Record<EndpointKey, object>;
const allEndpoints = Object.keys(endpoints) as EndpointKey[];

describe('the typed client never shows the key', () => {
  it('covers every endpoint of the catalog', () => {
    expect(Object.keys(inputs).sort()).toEqual([...allEndpoints].sort());
    expect(allEndpoints).toHaveLength(13);
  });

  it('every endpoint succeeds, sends the key in X-APIKEY and returns nothing that holds it', async () => {
    const client = clientWith(SECRET_KEY);
    const results: Partial<Record<EndpointKey, unknown>> = {};
    const run = async (key: EndpointKey, input: Record<string, unknown>) => {
      const { outcome, sent } = await attempt(`client.${key}`, () => client.send(key, input));
      expect({ key, ok: outcome.ok, error: outcome.ok ? undefined : String(outcome.error) }).toEqual({ key, ok: true, error: undefined });
      expect({ key, sent }).toEqual({ key, sent: [SECRET_KEY] });
      results[key] = outcome.ok ? outcome.value : undefined;
      return outcome.ok ? (outcome.value as Record<string, unknown>) : {};
    };
    expect(await run('checkApiKey', {})).toMatchObject({ valid: true, user: { name: 'Grace Hopper' }, organization: { name: 'Acme' } });
    expect(await run('listTeams', {})).toHaveLength(3);
    expect(await run('listOnCallUsers', inputs.listOnCallUsers)).toEqual([expect.objectContaining({ name: 'Alan Turing' })]);
    const incident = await run('createOrUpdateIncident', inputs.createOrUpdateIncident);
    expect(await run('createOrUpdateIncident', { id: incident.id, title: 'Disk full on db-1', status: 'resolved' })).toMatchObject({ status: 'resolved' });
    expect(await run('upsertDirectoryEntry', inputs.upsertDirectoryEntry)).toMatchObject({ phone: '+14155550177' });
    expect(await run('updateDirectoryPhone', inputs.updateDirectoryPhone)).toMatchObject({ phone: '+14155550178' });
    expect(await run('changeDirectoryRole', inputs.changeDirectoryRole)).toMatchObject({ role: 'admin' });
    expect(await run('getDirectoryEntry', { email: 'secret.test@acme.example' })).toMatchObject({ name: 'Secret Test' });
    expect(await run('removeDirectoryEntry', inputs.removeDirectoryEntry)).toEqual({ email: 'secret.test@acme.example', removed: true });
    const zapierHook = await run('subscribeZapierHook', inputs.subscribeZapierHook);
    expect(await run('unsubscribeZapierHook', { id: String(zapierHook.id) })).toEqual({ id: zapierHook.id, removed: true });
    const makeHook = await run('subscribeMakeHook', inputs.subscribeMakeHook);
    expect(await run('unsubscribeMakeHook', { id: String(makeHook.id) })).toEqual({ id: makeHook.id, removed: true });
    expect(Object.keys(results).sort()).toEqual([...allEndpoints].sort());
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  describe.each(faultCases.map((fault) => [fault.name, fault] as const))('every endpoint, when the service answers: %s', (_name, fault) => {
    it(`fails with ${fault.expected.client}, having sent the key, and no error holds it`, async () => {
      const client = clientWith(SECRET_KEY);
      for (const key of allEndpoints) {
        world.running.sandbox.faults.clear();
        world.running.sandbox.faults.inject({ method: endpoints[key].method, path: endpoints[key].path, ...fault.answer(SECRET_KEY), times: 1 });
        const { outcome, sent } = await attempt(`client.${key} (${fault.name})`, () => client.send(key, inputs[key]));
        expect({ key, error: errorName(outcome) }).toEqual({ key, error: expectedAt(fault, key).client });
        expect({ key, sent }).toEqual({ key, sent: [SECRET_KEY] });
      }
      world.running.sandbox.faults.clear();
      expect(watch.leaks(SECRETS)).toEqual([]);
    });
  });

  it('a network failure on every endpoint: NetworkError, without the key', async () => {
    const client = clientWith(SECRET_KEY);
    for (const key of allEndpoints) {
      world.proxy.breakNext(1);
      const { outcome, sent } = await attempt(`client.${key} (connection destroyed)`, () => client.send(key, inputs[key]));
      expect({ key, error: errorName(outcome) }).toEqual({ key, error: 'NetworkError' });
      expect({ key, sent }).toEqual({ key, sent: [SECRET_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('bad input is refused before anything is sent, without the key', async () => {
    const client = clientWith(SECRET_KEY);
    const bad: [EndpointKey, Record<string, unknown>][] = [
      ['createOrUpdateIncident', { title: '' }],
      ['upsertDirectoryEntry', { email: 'not an e-mail', name: 'X' }],
      ['updateDirectoryPhone', { email: 'katherine@acme.example', phone: SECRET_KEY }],
      ['changeDirectoryRole', { email: 'katherine@acme.example', role: 'owner' }],
      ['subscribeZapierHook', { url: 'ftp://example.com/hook' }],
      ['unsubscribeMakeHook', {}],
      ['listOnCallUsers', { teamname: '   ' }],
    ];
    for (const [key, input] of bad) {
      const { outcome, sent } = await attempt(`client.${key} (bad input)`, () => client.send(key, input));
      expect({ key, error: errorName(outcome) }).toEqual({ key, error: 'InvalidInputError' });
      expect({ key, sent }).toEqual({ key, sent: [] });
    }
    // A bad base URL or a key with a character a header cannot carry: refused without repeating either.
    const { outcome: badBase } = await attempt('client (bad base URL)', async () =>
      createNodeClient({ apiKey: SECRET_KEY, baseUrl: `ftp://${SECRET_KEY}.example` }),
    );
    expect(errorName(badBase)).toBe('InvalidInputError');
    const { outcome: badKey, sent } = await attempt('client (key with a line break)', () => clientWith(`${SECRET_KEY}\nX-Other: 1`).listTeams());
    expect([errorName(badKey), sent]).toEqual(['AuthenticationError', []]);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it("the service's own refusals (403 for a non-admin, 404 for unknown things) hold no key", async () => {
    const user = clientWith(SECRET_USER_KEY);
    const cases: [EndpointKey, Record<string, unknown>, string][] = [
      ['upsertDirectoryEntry', { email: 'x@acme.example', name: 'X' }, 'PermissionError'],
      ['changeDirectoryRole', { email: 'katherine@acme.example', role: 'admin' }, 'PermissionError'],
      ['removeDirectoryEntry', { email: 'katherine@acme.example' }, 'PermissionError'],
      ['listOnCallUsers', { teamname: SECRET_USER_KEY }, 'NotFoundError'],
      ['getDirectoryEntry', { email: 'nobody@acme.example' }, 'NotFoundError'],
      ['createOrUpdateIncident', { id: 'inc_404', title: 'x' }, 'NotFoundError'],
      ['unsubscribeZapierHook', { id: 'sub_404' }, 'NotFoundError'],
    ];
    for (const [key, input, expected] of cases) {
      const { outcome, sent } = await attempt(`client.${key} (service refusal)`, () => user.send(key, input));
      expect({ key, error: errorName(outcome) }).toEqual({ key, error: expected });
      expect({ key, sent }).toEqual({ key, sent: [SECRET_USER_KEY] });
    }
    // The one case where a key's text is the user's own input: a team named like the key. The
    // service quotes the name it could not find; the client removes it all the same.
    expect(watch.leaks([SECRET_KEY])).toEqual([]);
    expect(watch.leaks([SECRET_USER_KEY])).toEqual([]);
  });

  it('nothing printed or written to the temp folder holds the key, and the watch saw every place', () => {
    watch.text('stdout, stderr and console', world.output.text);
    const files = watch.files('temp folder', world.temp.dir);
    expect(files).toEqual([]);
    expect(watch.leaks(SECRETS)).toEqual([]);
    // Places looked at: 13 successes + 14 faults × 13 + 13 network failures + bad inputs + refusals, in 2–5 forms each.
    expect(watch.size).toBeGreaterThan(800);
    // The key went out every time it should have.
    expect(world.proxy.requests.filter((r) => r.apiKey === SECRET_KEY).length).toBeGreaterThanOrEqual(13 + faultCases.length * 13 + 13);
  });
});
