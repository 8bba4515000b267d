import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectedPeople, type ScaleSandbox, scaleKey, scaleSandbox } from './scale-sandbox.ts';
import { clientAt, connect, type HttpProcess, servedVersions, startHttp } from './support.ts';

/**
 * Progress and the cursor of "who is on call in every team" on every path a client reaches the
 * server by: each protocol version it serves (the 2025-era ones through `initialize`, 2026-07-28
 * through `server/discover` and its per-request `_meta`) over each transport (the real
 * `pagerly mcp` process over stdio, and `pagerly mcp --http` over Streamable HTTP), with the
 * SDK's own client, against the sandbox at 2,000 teams. MCP spec, basic/utilities/progress:
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress and
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress
 */

const TEAMS = 2_000;
/** Every version the server speaks. */
const VERSIONS = await servedVersions();
const LIMIT = 30;

let org: ScaleSandbox;
let http: HttpProcess;
const env = () => ({ PAGERLY_API_KEY: scaleKey(0), PAGERLY_BASE_URL: org.url });
beforeAll(async () => {
  org = await scaleSandbox(TEAMS, { keys: 1 });
  http = await startHttp([], env());
}, 60_000);
afterAll(async () => {
  await http?.close();
  await org?.close();
});

async function connected(transport: 'stdio' | 'http', version: string): Promise<Client> {
  const client = clientAt('progress-matrix', version);
  if (transport === 'stdio') await connect([], env(), [], client);
  else await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return client;
}

interface Page {
  on_call_users: { id: string; team: { id: string } }[];
  teams_read: number;
  teams_total: number;
  next_cursor?: string;
}

it('covers every version the server speaks, both eras', () => {
  expect(VERSIONS).toEqual(expect.arrayContaining(['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28']));
});

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  it.each(VERSIONS)(
    'protocol %s: progress grows to the teams read, of 2,000; the cursor gives the next people',
    async (version) => {
      const client = await connected(transport, version);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const errors: string[] = [];
        client.onerror = (error) => errors.push(error.message);
        const notes: { progress: number; total?: number; message?: string }[] = [];
        const first = (await client.callTool({ name: 'list_on_call_users', arguments: { limit: LIMIT } }, { onprogress: (p) => notes.push(p) }))
          .structuredContent as Page;
        expect(first.on_call_users).toHaveLength(LIMIT);
        expect(notes.every((p) => p.total === TEAMS)).toBe(true);
        expect(notes.every((p) => p.message === `Read who is on call in ${p.progress} of 2,000 teams.`)).toBe(true);
        // The last is the result's teams_read, sent before the result. Notifications that reach
        // the SDK's client in one read with the result (on a busy machine, more than one) are
        // dispatched after it and reported as for an unknown token
        // (modelcontextprotocol/typescript-sdk#2580, which no server can avoid): those reports are
        // the only errors, and they are the last notifications, in order.
        expect(errors.every((message) => message.startsWith('Received a progress notification for an unknown token: '))).toBe(true);
        const late = errors.map((message) => Number(/"progress":(\d+),/.exec(message)?.[1]));
        const sent = [...notes.map((p) => p.progress), ...late];
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.every((progress, i) => i === 0 || progress > sent[i - 1]!)).toBe(true);
        expect(sent.at(-1)).toBe(first.teams_read);

        const second = (await client.callTool({ name: 'list_on_call_users', arguments: { limit: LIMIT, cursor: first.next_cursor } }))
          .structuredContent as Page;
        const pairs = [...first.on_call_users, ...second.on_call_users].map((person) => `${person.team.id}:${person.id}`);
        expect(pairs).toEqual(expectedPeople(TEAMS).slice(0, 2 * LIMIT));
      } finally {
        await client.close();
      }
    },
    30_000,
  );
});
