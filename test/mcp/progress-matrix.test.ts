import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { expectedPeople, type ScaleSandbox, scaleKey, scaleSandbox } from './scale-sandbox.ts';
import { BIN, type HttpProcess, startHttp } from './support.ts';

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
const MODERN = '2026-07-28';
const VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN];
const LIMIT = 30;

let org: ScaleSandbox;
let http: HttpProcess;
beforeAll(async () => {
  org = await scaleSandbox(TEAMS, { keys: 1 });
  http = await startHttp([], { PAGERLY_API_KEY: scaleKey(0), PAGERLY_BASE_URL: org.url });
}, 60_000);
afterAll(async () => {
  await http?.close();
  await org?.close();
});

/** The SDK's client speaking exactly `version`: offered alone in `initialize`, or pinned through `server/discover`. */
function clientFor(version: string): Client {
  return new Client(
    { name: 'progress-matrix', version: '1.0.0' },
    version === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : { supportedProtocolVersions: [version] },
  );
}

async function connected(transport: 'stdio' | 'http', version: string): Promise<Client> {
  const client = clientFor(version);
  await client.connect(
    transport === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'mcp'],
          env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: scaleKey(0), PAGERLY_BASE_URL: org.url },
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(http.url)),
  );
  return client;
}

interface Page {
  on_call_users: { id: string; team: { id: string } }[];
  teams_read: number;
  teams_total: number;
  next_cursor?: string;
}

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  it.each(VERSIONS)(
    'protocol %s: progress grows to the teams read, of 2,000; the cursor gives the next people',
    async (version) => {
      const client = await connected(transport, version);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const notes: { progress: number; total?: number; message?: string }[] = [];
        const first = (await client.callTool({ name: 'list_on_call_users', arguments: { limit: LIMIT } }, { onprogress: (p) => notes.push(p) }))
          .structuredContent as Page;
        expect(first.on_call_users).toHaveLength(LIMIT);
        expect(notes.length).toBeGreaterThan(0);
        expect(notes.every((p) => p.total === TEAMS)).toBe(true);
        expect(notes.every((p, i) => i === 0 || p.progress > notes[i - 1]!.progress)).toBe(true);
        expect(notes.at(-1)).toEqual({ progress: first.teams_read, total: TEAMS, message: `Read who is on call in ${first.teams_read} of 2,000 teams.` });

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
