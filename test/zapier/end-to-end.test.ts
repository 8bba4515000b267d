import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { onCallChangedOperation } from '../../zapier-app/triggers/on-call-changed.ts';
import { appTester } from './support.ts';
import { authentication } from '../../zapier-app/authentication.ts';

/**
 * The Zapier app over real HTTP on loopback: the sandbox as the service (fixed clock,
 * 2026-11-02T08:00:00Z; Platform hands over from Alan to Edsger at 09:00) and a local
 * receiver in Zapier's place, for the hooks.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  content: string;
}

const HOUR = 3_600_000;
const authData = { apiKey: demoKeys.acmeAdmin };
const { performSubscribe, performUnsubscribe, perform, performList } = onCallChangedOperation;
type Item = Record<string, unknown>;

let sandbox: Sandbox;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
const savedEnv = { base: process.env.PAGERLY_BASE_URL, rotations: process.env.PAGERLY_ROTATIONS_BASE_URL };

beforeAll(async () => {
  sandbox = await createSandbox({ delivery: { timeoutMs: 2_000, retryDelaysMs: [50] } });
  process.env.PAGERLY_BASE_URL = await sandbox.listen();
  delete process.env.PAGERLY_ROTATIONS_BASE_URL;

  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, content: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (savedEnv.base === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = savedEnv.base;
  if (savedEnv.rotations !== undefined) process.env.PAGERLY_ROTATIONS_BASE_URL = savedEnv.rotations;
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await sandbox?.close();
});

/** Headers as Zapier hands them to a hook's perform: "Http-" and each word capitalised. */
const zapierHeaders = (headers: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      `Http-${name
        .split('-')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join('-')}`,
      String(value),
    ]),
  );

/** Runs perform as Zapier does for a received hook. */
const performFor = async (hook: Received, teamname = ''): Promise<Item[]> =>
  (await appTester(perform, {
    authData,
    inputData: { teamname },
    cleanedRequest: JSON.parse(hook.content) as unknown,
    rawRequest: { content: hook.content, headers: zapierHeaders(hook.headers) },
  })) as Item[];

describe('Zapier app against the sandbox', () => {
  const subscribeData: { platform?: { id: string }; all?: { id: string } } = {};

  it("connects with an org admin's key and labels the connection with the person and organization", async () => {
    const answer = await appTester(authentication.test, { authData });
    const label = await appTester(authentication.connectionLabel, { authData, inputData: answer as Record<string, unknown> });
    expect(label).toBe('Grace Hopper (Acme)');
  });

  it('subscribes a hook for Platform and one for every team', async () => {
    subscribeData.platform = (await appTester(performSubscribe, {
      authData,
      targetUrl: `${receiverUrl}/hooks/platform`,
      inputData: { teamname: 'Platform' },
    })) as { id: string };
    subscribeData.all = (await appTester(performSubscribe, { authData, targetUrl: `${receiverUrl}/hooks/all`, inputData: { teamname: '' } })) as { id: string };

    const stored = [subscribeData.platform, subscribeData.all].map((data) => sandbox.world.subscriptions.get(data.id));
    expect(stored).toEqual([
      expect.objectContaining({ platform: 'zapier', url: `${receiverUrl}/hooks/platform`, teamId: 'team_platform' }),
      expect.objectContaining({ platform: 'zapier', url: `${receiverUrl}/hooks/all`, teamId: null }),
    ]);
  });

  it('before the handover, performList shows Alan on call for Platform', async () => {
    const items = (await appTester(performList, { authData, inputData: { teamname: 'Platform' } })) as Item[];
    expect(items.map((i) => [(i.team as Item).name, i.current_names, i.previous_count])).toEqual([['Platform', 'Alan Turing', 0]]);
  });

  it('delivers the 09:00 handover, which perform turns into an item with the delivered event id', async () => {
    await sandbox.clock.advance(HOUR);
    await sandbox.deliveries.idle();

    const toPlatform = received.filter((hook) => hook.path === '/hooks/platform');
    const toAll = received.filter((hook) => hook.path === '/hooks/all');
    // The team-filtered hook got Platform's change only; the other one every team's.
    expect(toPlatform.map((hook) => (JSON.parse(hook.content) as { team: { name: string } }).team.name)).toEqual(['Platform']);
    expect(toAll.map((hook) => (JSON.parse(hook.content) as { team: { name: string } }).team.name).sort()).toEqual(['Payments', 'Platform']);

    const hook = toPlatform[0]!;
    const eventId = (JSON.parse(hook.content) as { id: string }).id;
    expect(hook.headers['x-pagerly-event-id']).toBe(eventId);

    const items = await performFor(hook, 'Platform');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: eventId,
      type: 'oncall.changed',
      occurred_at: '2026-11-02T09:00:00.000Z',
      team: { name: 'Platform' },
      previous_names: 'Alan Turing',
      previous_emails: 'alan@acme.example',
      current_names: 'Edsger Dijkstra',
      current_emails: 'edsger@acme.example',
      current_count: 1,
      previous: [expect.objectContaining({ id: 'usr_alan' })],
      current: [expect.objectContaining({ id: 'usr_edsger' })],
    });

    // The same delivery read from the raw request only (Zapier did not parse it) gives the same item.
    const fromRaw = (await appTester(perform, {
      authData,
      inputData: { teamname: 'Platform' },
      cleanedRequest: {},
      rawRequest: { content: hook.content, headers: zapierHeaders(hook.headers) },
    })) as Item[];
    expect(fromRaw[0]?.id).toBe(eventId);

    // On the every-team hook, each delivery is one item with its own event id.
    const allItems = (await Promise.all(toAll.map((each) => performFor(each)))).flat();
    expect(allItems.map((item) => item.id).sort()).toEqual(toAll.map((each) => (JSON.parse(each.content) as { id: string }).id).sort());
  });

  it('after the handover, performList shows Edsger', async () => {
    const items = (await appTester(performList, { authData, inputData: { teamname: 'Platform' } })) as Item[];
    expect(items.map((i) => i.current_names)).toEqual(['Edsger Dijkstra']);
  });

  it('unsubscribes both hooks with what subscribe returned; the sandbox holds none of them and delivers no more', async () => {
    const ours = [subscribeData.platform!, subscribeData.all!];
    for (const data of ours) expect(await appTester(performUnsubscribe, { authData, subscribeData: data })).toMatchObject({ id: data.id, removed: true });
    const remaining = [...sandbox.world.subscriptions.values()].filter((s) => s.url.startsWith(receiverUrl));
    expect(remaining).toEqual([]);

    const before = received.length;
    await sandbox.clock.advance(24 * HOUR);
    await sandbox.deliveries.idle();
    expect(received).toHaveLength(before);
  });
});
