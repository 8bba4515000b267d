import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchOnCall } from '../../cli/watch/watch-on-call.ts';
import { POLLING_NOTICE_NAME, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { parametersOf } from '../../n8n-app/parameters.ts';
import { pollOnCallChanges } from '../../n8n-app/runtime/index.ts';
import { hookOperation } from '../../n8n-app/runtime/operations.ts';
import type { ExecutionItem } from '../../n8n-app/runtime/n8n-api.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { createNodeClient } from '../../shared/node-client.ts';
import type { OnCallChange } from '../../shared/on-call/changes.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { classes, credentialFor, NodeApiError, NodeOperationError, pollContext, type Sent, type NodeApiErrorType } from './support.ts';

const HOUR = 3_600_000;

let sandbox: Sandbox;
let url: string;
const good = () => credentialFor(demoKeys.acmeAdmin, url);
const now = () => sandbox.clock.now();

beforeEach(async () => {
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  url = await sandbox.listen();
});
afterEach(async () => {
  await sandbox.close();
});

/**
 * One scheduled poll of an active workflow whose static data is `staticData`; `fields` are the
 * trigger's field values, stored as n8n stores them (the team in Filters, a resource locator).
 */
async function poll(staticData: IDataObject, fields: Record<string, string> = {}, mode: 'trigger' | 'manual' = 'trigger') {
  const { context, sent } = pollContext(good(), parametersOf(hookOperation(), fields), { staticData, mode });
  const result = await pollOnCallChanges(context, classes, now);
  return { result, sent };
}

const changesOf = (result: ExecutionItem[][] | null) => (result?.[0] ?? []).map((item) => item.json as unknown as OnCallChange);
const summary = (result: ExecutionItem[][] | null) => changesOf(result).map((c) => `${c.type} ${c.team.name} ${c.user.name}`);
/** The requests of a poll, as path and query: which calls it cost. */
const calls = (sent: readonly Sent[]) => sent.map((s) => new URL(s.url).pathname.replace(/^\/pagerly/, '') + new URL(s.url).search);

describe('the Pagerly Trigger polls who is on call (documented calls only)', () => {
  it('the first poll emits nothing; a person going off call and back on fires twice, 12 h apart', async () => {
    const staticData: IDataObject = {};
    const first = await poll(staticData, { teamname: 'Payments' });
    expect(first.result).toBeNull();
    expect(staticData).not.toEqual({});

    // Payments' primary rotation hands over every 12 hours between Edsger and Katherine.
    await sandbox.clock.advance(12 * HOUR);
    const second = await poll(staticData, { teamname: 'Payments' });
    const secondAt = now().toISOString();
    expect(summary(second.result)).toEqual([expect.stringMatching(/^on_call_ended Payments /), expect.stringMatching(/^on_call_started Payments /)]);

    await sandbox.clock.advance(12 * HOUR);
    const third = await poll(staticData, { teamname: 'Payments' });
    expect(summary(third.result)).toEqual([expect.stringMatching(/^on_call_ended Payments /), expect.stringMatching(/^on_call_started Payments /)]);

    const [wentOff, cameOn] = changesOf(second.result);
    const [backOff, backOn] = changesOf(third.result);
    expect(backOff!.user.id).toBe(cameOn!.user.id);
    expect(backOn!.user.id).toBe(wentOff!.user.id);
    // The person who went off call fired twice: off, then on again.
    const firedFor = (id: string) => [...changesOf(second.result), ...changesOf(third.result)].filter((c) => c.user.id === id).map((c) => c.type);
    expect(firedFor(wentOff!.user.id)).toEqual(['on_call_ended', 'on_call_started']);
    expect(cameOn).toEqual({
      type: 'on_call_started',
      team: { id: 'team_payments', name: 'Payments' },
      user: expect.objectContaining({ id: expect.any(String), name: expect.any(String), email: expect.any(String) }),
      detected_at: secondAt,
    });
    // A poll with nothing new is n8n's null again.
    expect((await poll(staticData, { teamname: 'Payments' })).result).toBeNull();
  });

  it('costs 1 + the number of teams watched requests a poll; currentusers always names its team', async () => {
    const teams = await createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url }).listTeams();
    const every = await poll({});
    expect(calls(every.sent)).toEqual(['/o/zapier/allteams', ...teams.map((team) => `/o/currentusers?teamname=${encodeURIComponent(team.name)}`)]);
    const one = await poll({}, { teamname: 'payments' });
    expect(calls(one.sent)).toEqual(['/o/zapier/allteams', '/o/currentusers?teamname=Payments']);
    expect([...every.sent, ...one.sent].some((s) => /currentusers(\?(?!teamname=.)|$)/.test(s.url))).toBe(false);
  });

  it('gives the items the CLI watcher prints for the same looks', async () => {
    // Every team, three looks 12 h apart: the n8n trigger, then the CLI (with a state file,
    // one look a run) on a fresh sandbox with the same clock.
    const staticData: IDataObject = {};
    const n8nItems: unknown[] = [];
    for (let look = 0; look < 3; look++) {
      n8nItems.push(...changesOf((await poll(staticData)).result));
      await sandbox.clock.advance(12 * HOUR);
    }
    await sandbox.close();
    sandbox = await createSandbox({ clock: { mode: 'fixed' } });
    url = await sandbox.listen();
    const client = createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url });
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pagerly-n8n-parity-')), 'state.json');
    const cliChanges: OnCallChange[] = [];
    for (let look = 0; look < 3; look++) {
      const emit = (change: OnCallChange) => cliChanges.push(change);
      await watchOnCall({ client, intervalMs: 1, once: true, stateFile, signal: new AbortController().signal, emit, note: () => undefined, now });
      await sandbox.clock.advance(12 * HOUR);
    }
    expect(n8nItems.length).toBeGreaterThan(0);
    expect(n8nItems).toEqual(JSON.parse(JSON.stringify(cliChanges)));
  });

  it('"Fetch Test Event" (manual mode) shows the people on call now and leaves the stored snapshot alone', async () => {
    const staticData: IDataObject = {};
    const manualFirst = await poll(staticData, {}, 'manual');
    const onCall = (await createNodeClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url }).listOnCallUsers({ teamname: 'Payments' })).map((u) => u.id);
    const sample = changesOf(manualFirst.result);
    expect(sample.length).toBeGreaterThan(0);
    expect(sample.every((c) => c.type === 'on_call_started' && c.detected_at === now().toISOString())).toBe(true);
    expect(sample.filter((c) => c.team.name === 'Payments').map((c) => c.user.id)).toEqual(onCall);
    expect(staticData).toEqual({});

    await poll(staticData);
    const stored = JSON.stringify(staticData);
    await sandbox.clock.advance(12 * HOUR);
    await poll(staticData, {}, 'manual');
    expect(JSON.stringify(staticData)).toBe(stored);
    // The scheduled poll after it still sees the handover the manual one looked at.
    expect(summary((await poll(staticData)).result)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^on_call_ended Payments /), expect.stringMatching(/^on_call_started Payments /)]),
    );
  });

  it('"Fetch Test Event" on a team with nobody on call says so instead of showing nothing', async () => {
    const error = await poll({}, { teamname: 'Mobile' }, 'manual').then(
      () => new Error('expected a failure'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/Nobody is on call/);
  });

  it('a team that cannot be read keeps its last known state: no false changes, the change comes at the next poll', async () => {
    const staticData: IDataObject = {};
    await poll(staticData, { teamname: 'Payments' });
    const before = JSON.stringify(staticData);
    await sandbox.clock.advance(12 * HOUR);
    const { context, sent } = pollContext(good(), parametersOf(hookOperation(), { teamname: 'Payments' }), {
      staticData,
      answer: (options) =>
        options.url.endsWith('/o/currentusers') ? { statusCode: 500, headers: { 'content-type': 'application/json' }, body: '[{"Error":"down"}]' } : undefined,
    });
    expect(await pollOnCallChanges(context, classes, now)).toBeNull();
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(staticData)).toBe(before);
    expect(summary((await poll(staticData, { teamname: 'Payments' })).result)).toEqual([
      expect.stringMatching(/^on_call_ended Payments /),
      expect.stringMatching(/^on_call_started Payments /),
    ]);
  });

  it("a team list that cannot be read fails the poll with n8n's error, never the key; the snapshot is kept", async () => {
    const staticData: IDataObject = {};
    await poll(staticData);
    const before = JSON.stringify(staticData);
    const badKey = 'sbx_acme_wrong_0000000000000000';
    const { context } = pollContext(credentialFor(badKey, url), {}, { staticData });
    const error = await pollOnCallChanges(context, classes, now).then(
      () => new Error('expected a failure'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as NodeApiErrorType).httpCode).toBe('400');
    const watch = new LeakWatch();
    watch.value('error', error);
    expect(watch.leaks([badKey])).toEqual([]);
    expect(JSON.stringify(staticData)).toBe(before);
  });

  it('a changed Team parameter starts over like a first poll instead of reporting the other teams gone', async () => {
    const staticData: IDataObject = {};
    await poll(staticData);
    expect((await poll(staticData, { teamname: 'Payments' })).result).toBeNull();
    expect((await poll(staticData)).result).toBeNull();
  });

  it('is a polling trigger described in one line in the nodes panel, its cost and interval in a notice above its parameters', () => {
    const description = triggerNodeDescription();
    expect(description.polling).toBe(true);
    expect('webhooks' in description).toBe(false);
    // One line, as n8n's own polling triggers word it (RSS Feed Trigger: "Starts a workflow when
    // an RSS feed is updated"); a notice holds the rest (n8n's node UI elements, "Notice":
    // https://docs.n8n.io/integrations/creating-nodes/build/reference/ui-elements/#notice).
    expect(description.description).toMatch(/^Starts the workflow when [^.\n]+$/);
    expect(description.description.length).toBeLessThanOrEqual(80);
    const [notice, ...parameters] = description.properties;
    expect(notice).toMatchObject({ name: POLLING_NOTICE_NAME, type: 'notice', default: '' });
    expect(notice!.displayName).toMatch(/1 \+ the number of teams watched requests/);
    expect(notice!.displayName).toMatch(/Poll Times sets how often; n8n's default is every minute/);
    // The optional team sits in a Filters collection, as in n8n's own polling triggers (Gmail Trigger).
    expect(parameters.map((p) => [p.name, p.type])).toEqual([['filters', 'collection']]);
    expect((parameters[0] as INodeProperties).options!.map((o) => ('type' in o ? [o.name, o.type] : []))).toEqual([['teamname', 'resourceLocator']]);
  });
});
