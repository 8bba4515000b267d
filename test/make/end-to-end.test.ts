import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { onCallChangeItem } from '../../shared/operations/on-call-change-item.ts';
import type { LogEntry } from '../../make-app/interpreter/runner/execute.ts';
import { demoKeys, HOUR, startReceiver, startSandbox, type Receiver, type Running } from '../sandbox/support.ts';
import { makeErrorOf, runnerFor } from './support.ts';

/** Every component of the generated Make app, run by the runner over real HTTP against the sandbox. */
let running: Running;
let receiver: Receiver;
let run: ReturnType<typeof runnerFor>;
const log: LogEntry[] = [];
const admin = { apiKey: demoKeys.acmeAdmin };
const user = { apiKey: demoKeys.acmeUser };

beforeAll(async () => {
  running = await startSandbox();
  receiver = await startReceiver();
  run = runnerFor(running.url, log);
});
afterAll(async () => {
  await receiver.close();
  await running.sandbox.close();
});

describe('Make app against the sandbox', () => {
  it('validates the connection and labels it with whose key it is', async () => {
    await expect(run.testConnection(admin)).resolves.toEqual({ data: undefined, label: { type: 'text', value: 'Grace Hopper (Acme)' } });
    const refused = await makeErrorOf(run.testConnection({ apiKey: 'sbx_not_a_key_at_all' }));
    expect(refused.type).toBe('InvalidAccessTokenError');
    expect(refused.message).toContain('API Key is not valid');
  });

  it('lists teams for every team select (listTeams)', async () => {
    await expect(run.rpc('listTeams', { connection: user })).resolves.toEqual([
      { label: 'Platform', value: 'Platform' },
      { label: 'Payments', value: 'Payments' },
      { label: 'Mobile', value: 'Mobile' },
    ]);
  });

  it("lists who is on call as one bundle each, with the team's names; nobody is no bundles", async () => {
    const bundles = (await run.module('listOnCallUsers', { connection: user, parameters: { teamname: 'payments' } })) as Record<string, unknown>[];
    expect(bundles.map((b) => b.email)).toEqual(['katherine@acme.example', 'grace@acme.example']);
    expect(bundles[0]).toMatchObject({ imageurl: null, on_call_names: 'Katherine Johnson, Grace Hopper', on_call_count: 2 });
    await expect(run.module('listOnCallUsers', { connection: user, parameters: { teamname: 'Mobile' } })).resolves.toEqual([]);
    const everyone = await run.module('listOnCallUsers', { connection: user, parameters: { teamname: '' } });
    expect(everyone.length).toBe(3);
  });

  it('creates, updates and resolves an incident', async () => {
    const [created] = (await run.module('createIncident', {
      connection: user,
      parameters: { title: 'Checkout down', severity: 'P1', description: '', teamname: 'Platform' },
    })) as Record<string, unknown>[];
    expect(created).toMatchObject({ title: 'Checkout down', severity: 'P1', status: 'triggered', teamname: 'Platform', description: null });
    const [resolved] = (await run.module('updateIncident', {
      connection: user,
      parameters: { id: created!.id, title: 'Checkout down', status: 'resolved' },
    })) as Record<string, unknown>[];
    expect(resolved).toMatchObject({ id: created!.id, status: 'resolved', severity: 'P1' });
  });

  it('keeps the directory: create with a typed phone number, update phone and role, find, remove', async () => {
    const parameters = { email: 'new.hire@acme.example', name: 'New Hire', phone: '+1 (415) 555-0199' };
    const [entry] = (await run.module('createDirectoryEntry', { connection: admin, parameters })) as Record<string, unknown>[];
    expect(entry).toMatchObject({ email: 'new.hire@acme.example', phone: '+14155550199', role: 'user' });
    await expect(
      run.module('updateDirectoryPhone', { connection: user, parameters: { email: 'new.hire@acme.example', phone: '+44 20 7946 0958' } }),
    ).resolves.toMatchObject([{ phone: '+442079460958' }]);
    await expect(
      run.module('changeDirectoryRole', { connection: admin, parameters: { email: 'new.hire@acme.example', role: 'admin' } }),
    ).resolves.toMatchObject([{ role: 'admin' }]);
    await expect(run.module('getDirectoryEntry', { connection: user, parameters: { email: 'new.hire@acme.example' } })).resolves.toMatchObject([
      { name: 'New Hire', role: 'admin' },
    ]);
    await expect(run.module('removeDirectoryEntry', { connection: admin, parameters: { email: 'new.hire@acme.example' } })).resolves.toEqual([
      { email: 'new.hire@acme.example', removed: true },
    ]);
    // Make takes any 4xx for an error (developers.make.com/custom-apps-documentation/app-structure/base/error-handling):
    // an unknown e-mail is a [404] the scenario can catch with an error handler, never an empty bundle.
    const gone = await makeErrorOf(run.module('getDirectoryEntry', { connection: user, parameters: { email: 'new.hire@acme.example' } }));
    expect([gone.type, gone.status]).toEqual(['DataError', 404]);
    expect(gone.message).toBe('[404] Not found: No directory entry for "new.hire@acme.example" in this organization');
  });

  it('updates a directory entry in two requests (read, then write): fields left empty keep their values; an unknown e-mail is a [404]', async () => {
    // Make's "Multiple Requests" page, "Full update approach": the app reads the record and sends what the user left empty as it was.
    const parameters = { email: 'update.me@acme.example', name: 'Update Me', phone: '+14155550111' };
    await run.module('createDirectoryEntry', { connection: admin, parameters });
    await run.module('changeDirectoryRole', { connection: admin, parameters: { email: parameters.email, role: 'admin' } });
    const sent = log.length;
    const [renamed] = (await run.module('updateDirectoryEntry', {
      connection: admin,
      parameters: { email: parameters.email, name: 'Updated Me', phone: '', role: '' },
    })) as Record<string, unknown>[];
    expect(renamed).toMatchObject({ email: parameters.email, name: 'Updated Me', phone: '+14155550111', role: 'admin' });
    expect(log.slice(sent).map((entry) => `${entry.method} ${entry.statusCode}`)).toEqual(['GET 200', 'POST 200']);
    const [rephoned] = (await run.module('updateDirectoryEntry', {
      connection: admin,
      parameters: { email: parameters.email, phone: '+1 (415) 555-0122' },
    })) as Record<string, unknown>[];
    expect(rephoned).toMatchObject({ name: 'Updated Me', phone: '+14155550122', role: 'admin' });

    const before = log.length;
    const unknown = await makeErrorOf(run.module('updateDirectoryEntry', { connection: admin, parameters: { email: 'nobody.here@acme.example', name: 'X' } }));
    expect([unknown.type, unknown.status]).toEqual(['DataError', 404]);
    expect(unknown.message).toBe('[404] Not found: No directory entry for "nobody.here@acme.example" in this organization');
    // The read failed, so nothing was written: an update never creates.
    expect(log.slice(before).map((entry) => `${entry.method} ${entry.statusCode}`)).toEqual(['GET 404']);
    await run.module('removeDirectoryEntry', { connection: admin, parameters: { email: parameters.email } });
  });

  it("refuses admin-only modules to a user's key with InvalidConfigurationError, and says why", async () => {
    const refused = await makeErrorOf(run.module('removeDirectoryEntry', { connection: user, parameters: { email: 'katherine@acme.example' } }));
    expect(refused.type).toBe('InvalidConfigurationError');
    expect(refused.message).toMatch(/Only an org admin can do this/);
    const owner = await makeErrorOf(run.module('removeDirectoryEntry', { connection: admin, parameters: { email: 'ada@acme.example' } }));
    expect(owner.type).toBe('DataError');
    expect(owner.message).toMatch(/owner/);
  });

  it("makes any API call with the connection's key (makeApiCall)", async () => {
    const [teams] = (await run.module('makeApiCall', { connection: user, parameters: { url: '/pagerly/o/zapier/allteams', method: 'GET' } })) as Record<
      string,
      any
    >[];
    expect(teams!.statusCode).toBe(200);
    expect(teams!.body.map((t: { name: string }) => t.name)).toEqual(['Platform', 'Payments', 'Mobile']);
    const [created] = (await run.module('makeApiCall', {
      connection: user,
      parameters: { url: '/o/incident', method: 'POST', headers: [{ key: 'Content-Type', value: 'application/json' }], body: '{"title":"From the API call"}' },
    })) as Record<string, any>[];
    expect(created).toMatchObject({ statusCode: 201, body: { title: 'From the API call' } });
  });

  it("attaches the webhook, turns a live on-call change into the trigger's bundle, and detaches", async () => {
    const stored = await run.attach('onCallChanges', {
      connection: user,
      parameters: { teamname: 'platform' },
      webhook: { id: 'make-hook-1', url: receiver.url },
    });
    const subscriptions = [...running.sandbox.world.subscriptions.values()];
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ id: stored.externalHookId, platform: 'make', url: receiver.url });

    await running.sandbox.clock.advance(HOUR + 1); // 09:00 UTC: Platform hands over from Alan to Edsger
    await running.sandbox.deliveries.idle();
    const delivered = receiver.received.filter((hook) => hook.body.team?.name === 'Platform');
    expect(delivered).toHaveLength(1);
    expect(receiver.received.every((hook) => hook.body.team.name === 'Platform')).toBe(true);

    const body = delivered[0]!.body;
    const bundles = run.receive('onCallChanges', { parameters: { teamname: 'Platform' }, body });
    expect(bundles).toHaveLength(1);
    expect(bundles[0]).toMatchObject({ previous_names: 'Alan Turing', current_names: 'Edsger Dijkstra', team: { name: 'Platform' }, id: body.id });
    // The Make bundle and the Zapier item for the same payload are the same thing.
    expect(bundles[0]).toEqual(onCallChangeItem(body, new Date(0)));

    const otherTeam = { ...body, team: { id: 'team_payments', name: 'Payments' } };
    expect(run.receive('onCallChanges', { parameters: { teamname: 'Platform' }, body: otherTeam })).toEqual([]);
    expect(run.receive('onCallChanges', { parameters: {}, body: otherTeam })).toHaveLength(1);

    await run.detach('onCallChanges', { connection: user, parameters: {}, webhook: stored });
    expect(running.sandbox.world.subscriptions.size).toBe(0);
    // Detaching again: Make cannot take the 404 for success, so it says in one sentence that nothing is left to remove.
    const again = await makeErrorOf(run.detach('onCallChanges', { connection: user, parameters: {}, webhook: stored }));
    expect([again.type, again.message]).toEqual([
      'DataError',
      '[404] Pagerly no longer has this subscription, so it sends nothing to this webhook: nothing is left to detach.',
    ]);
    // A service with no removal (405) or one that says it is gone (410): the same sentence.
    for (const status of [405, 410]) {
      running.sandbox.faults.inject({ method: 'DELETE', path: '/o/make/subscribe/{id}', status, body: '[{"Error":"gone"}]', times: 1 });
      const gone = await makeErrorOf(run.detach('onCallChanges', { connection: user, parameters: {}, webhook: stored }));
      expect(gone.message).toBe(`[${status}] Pagerly no longer has this subscription, so it sends nothing to this webhook: nothing is left to detach.`);
    }
  });

  it("turns 429, 500, HTML and truncated JSON into Make's error types", async () => {
    const inject = (status: number, body: string, contentType = 'application/json', headers: Record<string, string> = {}) =>
      running.sandbox.faults.inject({ path: '/o/zapier/allteams', status, body, contentType, headers });
    inject(429, '[{"Error":"Rate limit exceeded"}]', 'application/json', { 'retry-after': '30' });
    const limited = await makeErrorOf(run.rpc('listTeams', { connection: user }));
    expect([limited.type, limited.message]).toEqual(['RateLimitError', '[429] Pagerly is rate limiting this API key; retry after 30 seconds.']);
    inject(500, '[{"Error":"Internal error"}]');
    expect((await makeErrorOf(run.rpc('listTeams', { connection: user }))).type).toBe('ConnectionError');
    inject(200, '<html><body>Maintenance</body></html>', 'text/html');
    const html = await makeErrorOf(run.rpc('listTeams', { connection: user }));
    expect([html.type, html.message]).toEqual(['DataError', '[200] Pagerly answered with a body that is not JSON: <html><body>Maintenance</body></html>']);
    inject(200, '[{"id":"team_platform","na');
    expect((await makeErrorOf(run.rpc('listTeams', { connection: user }))).type).toBe('DataError');
  });

  it('never logs the key: the Base and every standalone request sanitize X-APIKEY', () => {
    expect(log.length).toBeGreaterThan(15);
    const keys = Object.values(demoKeys);
    for (const entry of log) {
      expect(entry.headers['X-APIKEY']).toBe('[sanitized]');
      for (const key of keys) expect(JSON.stringify(entry)).not.toContain(key);
    }
  });
});
