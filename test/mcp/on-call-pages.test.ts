import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/server';
import type { PagerlyMcpOptions } from '../../mcp-server/server.ts';
import { ANSWER_WITHIN_MS } from '../../mcp-server/tool-call.ts';
import { TEAM_LOOKUPS } from '../../shared/on-call/by-team.ts';
import { LeakWatch } from '../support/leak-watch.ts';
import { loopbackServer } from '../support/loopback-server.ts';
import { inProcess } from './in-process.ts';
import { expectedPeople, type ScaleSandbox, scaleKey, scaleSandbox } from './scale-sandbox.ts';

/**
 * "Who is on call in every team" through MCP at the size of a large organization (2,000 teams,
 * the sandbox's scale seed): `limit` bounds the requests, not only the answer; `next_cursor`
 * goes on without repeating or skipping anyone; a progress token gets teams read of teams in
 * all; the caller's cancellation stops the reading; a rate-limited service still answers in
 * time. MCP spec 2025-06-18, basic/utilities/progress and server/utilities/pagination (opaque
 * cursors): https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress,
 * https://modelcontextprotocol.io/specification/2025-06-18/server/utilities/pagination
 */

const TEAMS = 2_000;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const connected = (options: Partial<PagerlyMcpOptions> & { baseUrl: string; apiKey: string }) =>
  inProcess({ writeTools: false, version: 'test', backoffMs: 5, ...options }, stops, 'pages');

interface Page {
  on_call_users: { id: string; team: { id: string; name: string } }[];
  total: number;
  teams_read: number;
  teams_total: number;
  next_cursor?: string;
  note?: string;
}

const pageOf = (result: { structuredContent?: unknown; isError?: unknown; content?: unknown }): Page => {
  if (result.isError) throw new Error((result.content as { text: string }[])[0]?.text);
  return result.structuredContent as Page;
};
const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text ?? '';
const pairs = (page: Page) => page.on_call_users.map((person) => `${person.team.id}:${person.id}`);

let org: ScaleSandbox;
beforeAll(async () => {
  org = await scaleSandbox(TEAMS, { keys: 12 });
}, 60_000);
afterAll(() => org?.close());

describe(`list_on_call_users at ${TEAMS.toLocaleString('en-US')} teams`, () => {
  it('limit 10 reads the teams that hold ten people, not 2,001 requests, and says how to go on', async () => {
    const key = scaleKey(0);
    const client = await connected({ baseUrl: org.url, apiKey: key });
    const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 10 } }));
    expect(pairs(page)).toEqual(expectedPeople(TEAMS).slice(0, 10));
    expect([page.teams_read, page.teams_total, page.total]).toEqual([5, TEAMS, 10]);
    // The team list, the five teams needed, and at most the few asked at once when the tenth came.
    const sent = org.sent(key);
    expect(sent.lists).toBe(1);
    expect(sent.teams).toBeGreaterThanOrEqual(5);
    expect(sent.teams).toBeLessThanOrEqual(5 + TEAM_LOOKUPS - 1);
    expect(page.next_cursor).toMatch(/^[\w-]+$/);
    expect(page.note).toBe(
      'Showing 10 people on call; 5 of 2,000 teams read so far. More remain: call again with the same arguments and cursor set to next_cursor for the next ones; narrow it with teamname or team_contains.',
    );
  });

  it('next_cursor goes on to the end: everyone once, in team order, no repeats or gaps, each page a few requests', async () => {
    const key = scaleKey(1);
    const client = await connected({ baseUrl: org.url, apiKey: key });
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      // 137 a page: pages end inside a team as often as between teams.
      const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 137, ...(cursor ? { cursor } : {}) } }));
      seen.push(...pairs(page));
      cursor = page.next_cursor;
      calls++;
      expect(page.teams_total).toBe(TEAMS);
      if (!cursor) expect([page.teams_read, page.note]).toEqual([TEAMS, undefined]);
    } while (cursor && calls < 100);
    expect(seen).toEqual(expectedPeople(TEAMS));
    expect(calls).toBe(Math.ceil((2 * TEAMS) / 137));
    // Each team once, but the team a page ended inside, read again by the next page, and the few in flight at each end.
    const sent = org.sent(key);
    expect(sent.lists).toBe(calls);
    expect(sent.teams).toBeLessThanOrEqual(TEAMS + calls * TEAM_LOOKUPS);
  }, 60_000);

  it('a progress token gets teams read of teams in all, always growing, ending where the result does', async () => {
    const client = await connected({ baseUrl: org.url, apiKey: scaleKey(2) });
    const first: { progress: number; total?: number; message?: string }[] = [];
    const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 300 } }, { onprogress: (p) => first.push(p) }));
    expect(first.length).toBeGreaterThan(1);
    expect(first.every((p) => p.total === TEAMS)).toBe(true);
    expect(first.every((p, i) => i === 0 || p.progress > first[i - 1]!.progress)).toBe(true);
    expect(first.at(-1)!.progress).toBe(page.teams_read);
    expect(first.at(-1)!.message).toBe(`Read who is on call in ${page.teams_read} of 2,000 teams.`);
    // Going on, progress counts the teams the earlier pages read too.
    const next: { progress: number }[] = [];
    const second = pageOf(
      await client.callTool({ name: 'list_on_call_users', arguments: { limit: 300, cursor: page.next_cursor } }, { onprogress: (p) => next.push(p) }),
    );
    expect(next[0]!.progress).toBe(page.teams_read);
    expect(next.at(-1)!.progress).toBe(second.teams_read);
  });

  it('without a progress token, no progress is sent', async () => {
    const client = await connected({ baseUrl: org.url, apiKey: scaleKey(3) });
    const notified: unknown[] = [];
    client.fallbackNotificationHandler = async (notification) => void notified.push(notification);
    pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 20 } }));
    expect(notified).toEqual([]);
  });

  it('team_contains and teamname bound the cursor: one from another list is refused before any request', async () => {
    const key = scaleKey(4);
    const client = await connected({ baseUrl: org.url, apiKey: key });
    const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { team_contains: 'team 01', limit: 5 } }));
    // Team 0100 … Team 0199; five people are Team 0100's and 0101's two each, and Team 0102's first.
    expect(page.teams_total).toBe(100);
    const before = org.sent(key);
    const other = await client.callTool({ name: 'list_on_call_users', arguments: { team_contains: 'team 02', cursor: page.next_cursor } });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toBe(
      'cursor continues a list read with other teamname and team_contains: call again with the same teamname and team_contains as the call that gave it, or leave cursor out to start from the first team',
    );
    expect(org.sent(key)).toEqual(before);
    // Letter case and spaces around it do not make another list.
    const same = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { team_contains: ' TEAM 01', limit: 5, cursor: page.next_cursor } }));
    expect(same.on_call_users[0]!.team.name).toBe('Team 0102');
  });

  it.each([
    ['not base64', '!!!'],
    ['not JSON', 'bm90IGpzb24'],
    ['another shape', Buffer.from('{"v":2}').toString('base64url')],
  ])('a cursor that is %s is refused, saying what to pass instead', async (_what, cursor) => {
    const client = await connected({ baseUrl: org.url, apiKey: scaleKey(5) });
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { cursor } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'cursor is not a cursor this server gave: pass the next_cursor of the previous result unchanged, or leave cursor out to start from the first team',
    );
  });

  it('the sandbox default rate limit (600 a minute) no longer stops "everyone on call" for a small limit', async () => {
    const limited = await scaleSandbox(TEAMS, { rateLimit: { limit: 600, windowMs: 60_000 } });
    stops.push(limited.close);
    const client = await connected({ baseUrl: limited.url, apiKey: scaleKey(0) });
    const started = performance.now();
    const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 10 } }));
    expect(page.on_call_users).toHaveLength(10);
    expect(performance.now() - started).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
    expect(ANSWER_WITHIN_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC / 2);
  }, 30_000);

  it('a rate limit met on the way: the call answers in its time with the people read so far and a cursor, and the cursor goes on', async () => {
    // Eight requests a minute: the team list and seven teams, then 429 with Retry-After of about a minute.
    const limited = await scaleSandbox(TEAMS, { rateLimit: { limit: 8, windowMs: 60_000 } });
    stops.push(limited.close);
    const client = await connected({ baseUrl: limited.url, apiKey: scaleKey(0), answerWithinMs: 1_500 });
    const started = performance.now();
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { limit: 40 } }, { timeout: 5_000 });
    const page = pageOf(result);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(page.on_call_users.length).toBeGreaterThan(0);
    expect(page.on_call_users.length).toBeLessThan(40);
    expect(pairs(page)).toEqual(expectedPeople(TEAMS).slice(0, page.on_call_users.length));
    expect(page.note).toContain('(Pagerly was slow to answer, or its rate limit asked to wait, so this answer stops early)');
    // A new window: the cursor goes on from the first person not given.
    const fresh = await scaleSandbox(TEAMS);
    stops.push(fresh.close);
    const onward = await connected({ baseUrl: fresh.url, apiKey: scaleKey(0) });
    const next = pageOf(await onward.callTool({ name: 'list_on_call_users', arguments: { limit: 10, cursor: page.next_cursor } }));
    expect(pairs(next)).toEqual(expectedPeople(TEAMS).slice(page.on_call_users.length, page.on_call_users.length + 10));
  }, 30_000);

  it('a rate limit met before the team list: a short failure in time, never an empty list', async () => {
    const limited = await scaleSandbox(20, { rateLimit: { limit: 1, windowMs: 60_000 } });
    stops.push(limited.close);
    const client = await connected({ baseUrl: limited.url, apiKey: scaleKey(0), answerWithinMs: 1_000 });
    await client.callTool({ name: 'list_teams', arguments: {} });
    const started = performance.now();
    const result = await client.callTool({ name: 'list_on_call_users', arguments: {} }, { timeout: 5_000 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Pagerly did not give the list of teams in the time this call has: try again in a minute.');
  }, 10_000);
});

describe('a team list that changes its order between calls', () => {
  it('each page goes on by team id: everyone once, whatever order the service lists the teams in', async () => {
    const teams = Array.from({ length: 60 }, (_, i) => ({ id: `team_${i}`, name: `Team ${i}` }));
    let calls = 0;
    const service = await loopbackServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      // Every listing in another order: reversed, rotated.
      const listed = url.pathname.endsWith('/allteams') ? [...teams.slice((++calls * 7) % 60), ...teams.slice(0, (calls * 7) % 60)].reverse() : undefined;
      const i = Number(url.searchParams.get('teamname')?.slice('Team '.length));
      const body = listed ?? [0, 1, 2].map((n) => ({ id: `usr_${i}_${n}`, name: `Person ${i}.${n}`, email: `p${i}.${n}@acme.example`, imageurl: null }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url, apiKey: 'order-test-key-5d1e' });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 7, ...(cursor ? { cursor } : {}) } }));
      seen.push(...pairs(page));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(teams.flatMap((_, i) => [0, 1, 2].map((n) => `team_${i}:usr_${i}_${n}`)));
  });
});

describe('a service that echoes the key in its team ids', () => {
  it('the cursor holds the id with the key taken out, as the result does, and still goes on', async () => {
    const key = 'echoed-key-7c4b1e9a0d';
    const teams = Array.from({ length: 6 }, (_, i) => ({ id: `team_${i}_${key}`, name: `Team ${i}` }));
    const service = await loopbackServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const i = Number(url.searchParams.get('teamname')?.slice('Team '.length));
      const body = url.pathname.endsWith('/allteams')
        ? teams
        : [0, 1].map((n) => ({ id: `u${i}.${n}`, name: `P${i}.${n}`, email: `p${i}.${n}@acme.example`, imageurl: null }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url, apiKey: key });
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { limit: 3 } });
    const page = pageOf(result);
    const watch = new LeakWatch();
    watch.value('result', result);
    watch.text('the cursor, decoded', Buffer.from(page.next_cursor!, 'base64url').toString('utf8'));
    expect(watch.leaks([key])).toEqual([]);
    const next = pageOf(await client.callTool({ name: 'list_on_call_users', arguments: { limit: 3, cursor: page.next_cursor } }));
    expect(next.on_call_users.length).toBeGreaterThan(0);
  });
});

describe('cancelling a call', () => {
  it('stops the reading: no team is asked once the caller cancelled', async () => {
    const asked: number[] = [];
    const service = await loopbackServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname.endsWith('/allteams')) {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: `t${i}`, name: `T${i}` }))));
        return;
      }
      asked.push(performance.now());
      // Nobody on call, slowly: the walk would go on through every team.
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 40);
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url, apiKey: 'cancel-test-key-8a2c' });
    const controller = new AbortController();
    const call = client.callTool({ name: 'list_on_call_users', arguments: {} }, { signal: controller.signal });
    // Cancelled once the walk is under way, however long a busy machine takes to get there.
    for (const deadline = performance.now() + 10_000; asked.length === 0 && performance.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const cancelledAt = performance.now();
    await expect(call).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));
    // What was already in flight (TEAM_LOOKUPS at most) may still arrive; nothing new is asked
    // afterwards, where a walk going on would ask about 40 more teams in these 400 ms.
    expect(asked.filter((at) => at <= cancelledAt).length).toBeGreaterThan(0);
    expect(asked.filter((at) => at > cancelledAt).length).toBeLessThanOrEqual(TEAM_LOOKUPS);
    expect(asked.length).toBeLessThan(500);
  });
});
