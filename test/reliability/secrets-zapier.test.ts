import type { Loose } from '../support/zapier-neutral-form.ts';
import { describe, expect, it } from '@jest/globals';
import { useSecretWorld } from './secret-harness.ts';
import { endpoints, type EndpointKey } from '../../shared/catalog/endpoints.ts';
import { HOUR, startReceiver, type Receiver } from '../sandbox/support.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { faultCases, keysSent, SECRET_KEY, SECRET_USER_KEY, SECRETS, expectedAt } from './secret-world.ts';
import { zapierErrorName, zapierHandler } from './zapier-handler.ts';

/**
 * Every operation of the Zapier app, run by zapier-platform-core's handler with a key the
 * sandbox accepts, then every failure path. Searched for the key: what each call returned
 * (the whole envelope) or threw (message, stack, JSON, util.inspect), every line core logged
 * (customLogger: the request log with headers and bodies, the "Unhandled error" lines), what
 * was printed (core logs to stdout here, detailed) and the temp folder.
 */
isolateZapierCore();

let receiver: Receiver;
const watch = new LeakWatch();
const zapier = zapierHandler({ printLogs: true });
const savedBase = process.env.PAGERLY_BASE_URL;

const world = useSecretWorld({
  start: async ({ proxy }) => {
    receiver = await startReceiver();
    process.env.PAGERLY_BASE_URL = proxy.url;
  },
  stop: async () => {
    if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
    else process.env.PAGERLY_BASE_URL = savedBase;
    await receiver.close();
  },
});

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function attempt(place: string, method: string, bundle: Record<string, unknown>) {
  const mark = world.proxy.requests.length;
  let outcome: Outcome;
  try {
    const envelope = await zapier.run(method, bundle);
    watch.value(`${place} → returned`, envelope);
    outcome = { ok: true, value: envelope.results };
  } catch (error) {
    watch.value(`${place} → threw`, error);
    outcome = { ok: false, error };
  }
  return { outcome, sent: keysSent(world.proxy.since(mark)) };
}

const nameOf = (outcome: Outcome) => (outcome.ok ? 'no error' : zapierErrorName(outcome.error));

interface Operation {
  method: string;
  /** The endpoint it calls first (where a fault is injected); none for what makes no request. */
  endpoint?: EndpointKey;
  bundle: Record<string, unknown>;
  /** What it answers instead of failing when the service says 404. */
  onNotFound?: unknown;
}

const auth = (apiKey = SECRET_KEY) => ({ authData: { apiKey } });
const hook = 'triggers.on_call_changed.operation';
const sampleEvent = {
  id: 'evt_x',
  type: 'oncall.changed',
  occurred_at: '2026-11-02T09:00:00Z',
  team: { id: 'team_platform', name: 'Platform' },
  previous: [],
  current: [],
};

/** Every operation of the app, with inputs fit for the fault runs (the success run below makes its own). */
const operations: Operation[] = [
  { method: 'authentication.test', endpoint: 'checkApiKey', bundle: { ...auth(), inputData: {} } },
  {
    method: 'authentication.connectionLabel',
    bundle: { ...auth(), inputData: { valid: true, user: { name: 'Grace Hopper' }, organization: { name: 'Acme' } } },
  },
  { method: 'triggers.team.operation.perform', endpoint: 'listTeams', bundle: { ...auth(), inputData: {} } },
  {
    method: `${hook}.performSubscribe`,
    endpoint: 'subscribeZapierHook',
    bundle: { ...auth(), inputData: { teamname: 'Platform' }, targetUrl: 'https://hooks.zapier.example/secret' },
  },
  { method: `${hook}.performList`, endpoint: 'listTeams', bundle: { ...auth(), inputData: { teamname: 'Platform' } } },
  { method: `${hook}.perform`, bundle: { ...auth(), inputData: {}, cleanedRequest: sampleEvent } },
  {
    method: `${hook}.performUnsubscribe`,
    endpoint: 'unsubscribeZapierHook',
    bundle: { ...auth(), inputData: {}, subscribeData: { id: 'sub_9999' } },
    onNotFound: { id: 'sub_9999', removed: true },
  },
  {
    method: 'creates.create_incident.operation.perform',
    endpoint: 'createOrUpdateIncident',
    bundle: { ...auth(), inputData: { title: 'Disk full', severity: 'P2' } },
  },
  {
    method: 'creates.create_directory_entry.operation.perform',
    endpoint: 'upsertDirectoryEntry',
    bundle: { ...auth(), inputData: { email: 'z@acme.example', name: 'Z' } },
  },
  {
    method: 'creates.update_directory_phone.operation.perform',
    endpoint: 'updateDirectoryPhone',
    bundle: { ...auth(), inputData: { email: 'katherine@acme.example', phone: '+14155550103' } },
  },
  {
    method: 'creates.change_directory_role.operation.perform',
    endpoint: 'changeDirectoryRole',
    bundle: { ...auth(), inputData: { email: 'katherine@acme.example', role: 'user' } },
  },
  {
    method: 'creates.update_incident.operation.perform',
    endpoint: 'createOrUpdateIncident',
    bundle: { ...auth(), inputData: { id: 'inc_0001', title: 'Disk full', status: 'resolved' } },
  },
  {
    method: 'creates.update_directory_entry.operation.perform',
    endpoint: 'getDirectoryEntry',
    bundle: { ...auth(), inputData: { email: 'katherine@acme.example', name: 'K' } },
  },
  // Already gone is the goal reached (Zapier's guidance for delete actions): it succeeds and says so.
  {
    method: 'creates.remove_directory_entry.operation.perform',
    endpoint: 'removeDirectoryEntry',
    bundle: { ...auth(), inputData: { email: 'nobody@acme.example' } },
    onNotFound: { email: 'nobody@acme.example', removed: false },
  },
  { method: 'searches.find_on_call_users.operation.perform', endpoint: 'listOnCallUsers', bundle: { ...auth(), inputData: { teamname: 'Payments' } } },
  {
    method: 'searches.find_directory_entry.operation.perform',
    endpoint: 'getDirectoryEntry',
    bundle: { ...auth(), inputData: { email: 'katherine@acme.example' } },
    onNotFound: [],
  },
];
const requesting = operations.filter((op) => op.endpoint !== undefined);

/** Every method the app defines: authentication's two, each trigger's, create's and search's. */
function appMethods(): string[] {
  const app = zapier.App as unknown as Record<'triggers' | 'creates' | 'searches', Record<string, { operation: Record<string, unknown> }>>;
  const functions = (kind: 'triggers' | 'creates' | 'searches') =>
    Object.entries(app[kind]).flatMap(([key, definition]) =>
      Object.entries(definition.operation)
        .filter(([, value]) => typeof value === 'function')
        .map(([name]) => `${kind}.${key}.operation.${name}`),
    );
  return ['authentication.test', 'authentication.connectionLabel', ...functions('triggers'), ...functions('creates'), ...functions('searches')];
}

describe('the Zapier app never shows the key', () => {
  it('covers every operation the app defines', () => {
    expect(operations.map((op) => op.method).sort()).toEqual(appMethods().sort());
    expect(operations).toHaveLength(16);
  });

  it('every operation succeeds through core, sending the key in X-APIKEY only', async () => {
    const run = async (method: string, bundle: Record<string, unknown>, requests: number) => {
      const { outcome, sent } = await attempt(method, method, bundle);
      expect({ method, error: outcome.ok ? undefined : String(outcome.error) }).toEqual({ method, error: undefined });
      expect({ method, sent }).toEqual({ method, sent: Array(requests).fill(SECRET_KEY) });
      return (outcome.ok ? outcome.value : undefined) as Loose;
    };
    // The connection check: the key check, then the team list at the rotations base.
    const check = await run('authentication.test', { ...auth(), inputData: {} }, 2);
    expect(check).toMatchObject({ user: { name: 'Grace Hopper' } });
    expect(await run('authentication.connectionLabel', { ...auth(), inputData: check }, 0)).toBe('Grace Hopper (Acme)');
    // The label when the check names nobody, or names the key itself: empty (Zapier shows its own
    // app name and number, docs.zapier.com/platform/build/connection-label), no character of the key.
    expect(await run('authentication.connectionLabel', { ...auth(), inputData: {} }, 0)).toBe('');
    const quoting = { user: { name: SECRET_KEY, email: `${SECRET_KEY.slice(0, 10)}@acme.example` }, organization: { name: 'Acme' } };
    expect(await run('authentication.connectionLabel', { ...auth(), inputData: quoting }, 0)).toBe('Acme API key');
    expect(await run('triggers.team.operation.perform', { ...auth(), inputData: {} }, 1)).toHaveLength(3);
    const subscription = await run(`${hook}.performSubscribe`, { ...auth(), inputData: { teamname: 'Platform' }, targetUrl: receiver.url }, 1);
    expect(subscription).toMatchObject({ url: receiver.url, teamname: 'Platform' });
    expect(await run(`${hook}.performList`, { ...auth(), inputData: { teamname: 'Platform' } }, 2)).toEqual([
      expect.objectContaining({ team: { id: 'team_platform', name: 'Platform' } }),
    ]);
    // A live change, delivered to the hook, through perform.
    await world.running.sandbox.clock.advance(HOUR);
    await world.running.sandbox.deliveries.idle();
    const delivery = receiver.received[0]!;
    const content = JSON.stringify(delivery.body);
    const items = await run(
      `${hook}.perform`,
      {
        ...auth(),
        inputData: { teamname: 'Platform' },
        cleanedRequest: delivery.body,
        rawRequest: { content, headers: { 'Http-X-Pagerly-Event-Id': String(delivery.headers['x-pagerly-event-id']) } },
      },
      0,
    );
    expect(items).toEqual([expect.objectContaining({ team: { id: 'team_platform', name: 'Platform' }, current_names: 'Edsger Dijkstra' })]);
    expect(await run(`${hook}.performUnsubscribe`, { ...auth(), inputData: {}, subscribeData: subscription }, 1)).toEqual({
      id: subscription.id,
      removed: true,
    });
    const incident = await run(
      'creates.create_incident.operation.perform',
      { ...auth(), inputData: { title: 'Deploy failed', severity: 'P2', teamname: 'Platform' } },
      1,
    );
    expect(
      await run('creates.update_incident.operation.perform', { ...auth(), inputData: { id: incident.id, title: 'Deploy failed', status: 'resolved' } }, 1),
    ).toMatchObject({ status: 'resolved' });
    const email = 'zapier.secret@acme.example';
    expect(
      await run('creates.create_directory_entry.operation.perform', { ...auth(), inputData: { email, name: 'Zap Secret', phone: '+1 415 555 0166' } }, 1),
    ).toMatchObject({ phone: '+14155550166' });
    expect(await run('creates.update_directory_phone.operation.perform', { ...auth(), inputData: { email, phone: '+14155550167' } }, 1)).toMatchObject({
      phone: '+14155550167',
    });
    expect(await run('creates.change_directory_role.operation.perform', { ...auth(), inputData: { email, role: 'admin' } }, 1)).toMatchObject({
      role: 'admin',
    });
    // Read first, then replaced: two requests, the phone kept.
    expect(await run('creates.update_directory_entry.operation.perform', { ...auth(), inputData: { email, name: 'Zap Secret 2' } }, 2)).toMatchObject({
      name: 'Zap Secret 2',
      phone: '+14155550167',
    });
    expect(await run('searches.find_directory_entry.operation.perform', { ...auth(), inputData: { email } }, 1)).toEqual([
      expect.objectContaining({ name: 'Zap Secret 2' }),
    ]);
    expect(await run('creates.remove_directory_entry.operation.perform', { ...auth(), inputData: { email } }, 1)).toEqual({ email, removed: true });
    // The team list, then the team by name.
    expect(await run('searches.find_on_call_users.operation.perform', { ...auth(), inputData: { teamname: 'Payments' } }, 2)).toHaveLength(2);

    expect(zapier.logs.length).toBeGreaterThan(10);
    // Core's request log did carry the header, censored.
    expect(zapier.logs.some((line) => /X-APIKEY: :censored:/.test(String(line.data.request_headers)))).toBe(true);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  describe.each(faultCases.map((fault) => [fault.name, fault] as const))('every operation that calls the service, when it answers: %s', (_name, fault) => {
    it(`fails as ${fault.expected.zapier} (or answers "nothing found"), having sent the key, and nothing holds it`, async () => {
      for (const op of requesting) {
        const endpoint = endpoints[op.endpoint!];
        world.running.sandbox.faults.clear();
        world.running.sandbox.faults.inject({ method: endpoint.method, path: endpoint.path, ...fault.answer(SECRET_KEY), times: 1 });
        const { outcome, sent } = await attempt(`${op.method} (${fault.name})`, op.method, op.bundle);
        if (fault.notFound && op.onNotFound !== undefined) {
          expect({ method: op.method, outcome }).toEqual({ method: op.method, outcome: { ok: true, value: op.onNotFound } });
        } else {
          // A create that met a 5xx other than 503 may have been done: halted, not replayed (faults-outcome.test.ts).
          const { status } = fault.answer(SECRET_KEY);
          const expected = !endpoint.idempotent && status >= 500 && status !== 503 ? 'HaltedError' : expectedAt(fault, op.endpoint!).zapier;
          expect({ method: op.method, error: nameOf(outcome) }).toEqual({ method: op.method, error: expected });
        }
        // The key, and only it, on every request (a search read team by team lists the teams first).
        expect({ method: op.method, keys: [...new Set(sent)] }).toEqual({ method: op.method, keys: [SECRET_KEY] });
      }
      world.running.sandbox.faults.clear();
      expect(watch.leaks(SECRETS)).toEqual([]);
    });
  });

  it('a network failure on every operation that calls the service: ThrottledError (HaltedError for a create that had left), without the key', async () => {
    for (const op of requesting) {
      world.proxy.breakNext(1);
      const { outcome, sent } = await attempt(`${op.method} (connection destroyed)`, op.method, op.bundle);
      const expected = endpoints[op.endpoint!].idempotent ? 'ThrottledError' : 'HaltedError';
      expect({ method: op.method, error: nameOf(outcome) }).toEqual({ method: op.method, error: expected });
      expect({ method: op.method, sent }).toEqual({ method: op.method, sent: [SECRET_KEY] });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('bad input is refused before anything is sent, without the key', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['creates.create_incident.operation.perform', { title: '   ' }],
      ['creates.create_directory_entry.operation.perform', { email: 'not an e-mail', name: 'X' }],
      ['creates.update_directory_phone.operation.perform', { email: 'katherine@acme.example', phone: SECRET_KEY }],
      ['creates.change_directory_role.operation.perform', { email: 'katherine@acme.example', role: 'owner' }],
      ['searches.find_directory_entry.operation.perform', { email: 'nobody' }],
    ];
    for (const [method, inputData] of bad) {
      const { outcome, sent } = await attempt(`${method} (bad input)`, method, { ...auth(), inputData });
      expect({ method, error: nameOf(outcome) }).toEqual({ method, error: 'AppError:invalid_input' });
      expect({ method, sent }).toEqual({ method, sent: [] });
    }
    const subscribe = await attempt('performSubscribe (ftp target)', `${hook}.performSubscribe`, {
      ...auth(),
      inputData: {},
      targetUrl: `ftp://${SECRET_USER_KEY}.example/x`,
    });
    expect([nameOf(subscribe.outcome), subscribe.sent]).toEqual(['AppError:invalid_input', []]);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it("the service's own refusals (403 for a non-admin key, 404 for unknown things) hold no key", async () => {
    const user = auth(SECRET_USER_KEY);
    const cases: [string, Record<string, unknown>, string][] = [
      ['creates.create_directory_entry.operation.perform', { email: 'x@acme.example', name: 'X' }, 'AppError:permission'],
      ['creates.change_directory_role.operation.perform', { email: 'katherine@acme.example', role: 'admin' }, 'AppError:permission'],
      ['creates.remove_directory_entry.operation.perform', { email: 'katherine@acme.example' }, 'AppError:permission'],
      ['searches.find_on_call_users.operation.perform', { teamname: SECRET_USER_KEY }, 'AppError:not_found'],
      [`${hook}.performList`, { teamname: 'No such team' }, 'AppError:not_found'],
      ['creates.update_incident.operation.perform', { id: 'inc_404', title: 'x' }, 'AppError:not_found'],
      ['creates.update_directory_phone.operation.perform', { email: 'nobody@acme.example', phone: '+14155550100' }, 'AppError:not_found'],
    ];
    for (const [method, inputData, expected] of cases) {
      const { outcome, sent } = await attempt(`${method} (service refusal)`, method, { ...user, inputData });
      expect({ method, error: nameOf(outcome) }).toEqual({ method, error: expected });
      expect({ method, sent: sent.length > 0 && sent.every((key) => key === SECRET_USER_KEY) }).toEqual({ method, sent: true });
    }
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('a key pasted with surrounding whitespace is sent trimmed and still never shown', async () => {
    const padded = { authData: { apiKey: `  ${SECRET_KEY}\n` } };
    const ok = await attempt('authentication.test (padded key)', 'authentication.test', { ...padded, inputData: {} });
    expect([ok.outcome.ok, ok.sent]).toEqual([true, [SECRET_KEY, SECRET_KEY]]);
    world.running.sandbox.faults.inject({ path: '/o/zapier/allteams', status: 400, body: JSON.stringify([{ Error: `API Key ${SECRET_KEY} is not valid` }]) });
    const refused = await attempt('team (padded key, quoted back)', 'triggers.team.operation.perform', { ...padded, inputData: {} });
    expect([nameOf(refused.outcome), refused.sent]).toEqual(['ExpiredAuthError', [SECRET_KEY]]);
    expect(watch.leaks(SECRETS)).toEqual([]);
  });

  it('no line core logged, nothing printed and nothing in the temp folder holds the key', () => {
    zapier.logs.forEach((line, index) => {
      watch.text(`core log #${index}: message`, line.message);
      watch.value(`core log #${index}: data`, line.data);
    });
    watch.text('stdout, stderr and console', world.output.text);
    watch.files('temp folder', world.temp.dir);
    expect(watch.leaks(SECRETS)).toEqual([]);
    // What was looked at: the request log of every call to the service (with its X-APIKEY line) and
    // the printed copy of it. (Core's fetch wrapper also logs the sandbox's own hook delivery.)
    const httpLines = zapier.logs.filter((line) => line.data.log_type === 'http' && String(line.data.request_url).startsWith(world.proxy.url));
    expect(httpLines.length).toBeGreaterThanOrEqual(13 + faultCases.length * requesting.length);
    expect(httpLines.every((line) => /X-APIKEY: :censored:/.test(String(line.data.request_headers)))).toBe(true);
    expect(world.output.text).toContain('X-APIKEY');
    expect(world.proxy.requests.filter((r) => r.apiKey === SECRET_KEY).length).toBeGreaterThanOrEqual(13 + faultCases.length * requesting.length);
  });
});
