import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { offeredTools } from '../../mcp-server/server.ts';
import { KEY_MARK, KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { type HttpProcess, INITIALIZE, startHttp } from './support.ts';

/**
 * `pagerly mcp --http`: the real process on a free loopback port, the SDK's own Streamable HTTP
 * client, the sandbox. MCP spec 2025-06-18, basic/transports, "Streamable HTTP" and its
 * "Security Warning" (validate Origin; bind to localhost):
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#streamable-http
 */

let s: CliSandbox;
let envKey: HttpProcess;
let headerKey: HttpProcess;
const opened: Client[] = [];

beforeAll(async () => {
  s = await startCliSandbox();
  [envKey, headerKey] = await Promise.all([
    startHttp([], { PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: s.url }),
    // The environment's key is there too, and must never be used for a request without its own.
    startHttp(['--key-from-header', '--enable-write-tools'], { PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: s.url }),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.allSettled(opened.map((client) => client.close()));
  await Promise.allSettled([envKey?.close(), headerKey?.close()]);
  await s?.close();
});

async function client(url: string, options: { key?: string; modern?: boolean } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), options.key ? { requestInit: { headers: { 'X-APIKEY': options.key } } } : {});
  const c = new Client({ name: 'http-test', version: '1.0.0' }, options.modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await c.connect(transport);
  opened.push(c);
  return c;
}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

describe('pagerly mcp --http, the key from the environment', () => {
  it('listens on loopback by default and says where, without the key', () => {
    expect(envKey.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(envKey.stderr()).toMatch(/3 tools on http:\/\/127\.0\.0\.1:\d+\/mcp \(read-only.*the key from PAGERLY_API_KEY\)/);
    expect(envKey.stderr()).not.toContain('warning');
  });

  it.each([
    ['a 2025-era client (initialize)', false],
    ['a 2026-07-28 client (server/discover)', true],
  ])('%s lists the tools and calls one', async (_label, modern) => {
    const c = await client(envKey.url, { modern });
    const { tools } = await c.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(offeredTools(false).map((tool) => tool.name));
    const result = await c.callTool({ name: 'list_on_call_users', arguments: { teamname: 'Payments' } });
    expect(result.isError).toBeFalsy();
    const people = (result.structuredContent as { on_call_users: { team: { name: string } }[] }).on_call_users;
    expect(people.length).toBeGreaterThan(0);
    expect(people.every((person) => person.team.name === 'Payments')).toBe(true);
    expect(JSON.stringify(result)).not.toContain(KEY_MARK);
  });

  it('serves two clients at once, each its own answers', async () => {
    const [a, b] = await Promise.all([client(envKey.url), client(envKey.url, { modern: true })]);
    const calls = Array.from({ length: 6 }, (_, i) =>
      (i % 2 ? a : b).callTool({ name: 'list_on_call_users', arguments: { teamname: i % 3 ? 'Payments' : 'Platform' } }),
    );
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(result.isError).toBeFalsy();
      const teams = (result.structuredContent as { on_call_users: { team: { name: string } }[] }).on_call_users.map((p) => p.team.name);
      expect(new Set(teams)).toEqual(new Set([i % 3 ? 'Payments' : 'Platform']));
    });
  });

  const post = (url: string, headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(INITIALIZE[0]),
    });

  it('answers 403 to a browser page of another origin, before any tool runs', async () => {
    for (const origin of ['https://evil.example', 'http://attacker.localhost.evil.example:8080', 'null']) {
      const response = await post(envKey.url, { origin });
      expect([origin, response.status]).toEqual([origin, 403]);
    }
    // The same request from the machine's own origin, or from no browser at all (no Origin), is served.
    expect((await post(envKey.url, { origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await post(envKey.url, {})).status).toBe(200);
  });

  it('answers 403 to a Host that is not this machine (a DNS name rebound to 127.0.0.1)', async () => {
    const port = new URL(envKey.url).port;
    // fetch will not send a Host other than the URL's: a raw request does, as a rebound browser would.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: `rebind.evil.example:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(INITIALIZE[0]));
    });
    expect(status).toBe(403);
  });

  it('serves /mcp only', async () => {
    expect((await post(envKey.url.replace(/\/mcp$/, '/other'), {})).status).toBe(404);
  });
});

describe('pagerly mcp --http --key-from-header', () => {
  it("takes each request's key from X-APIKEY, never the environment's", async () => {
    const c = await client(headerKey.url);
    const result = await c.callTool({ name: 'list_teams', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^No API key: this server takes each client's key from the X-APIKEY header/);
  });

  it('two clients with different keys at once: each acts as its own key', async () => {
    const [admin, wrong] = await Promise.all([client(headerKey.url, { key: KEYS.admin }), client(headerKey.url, { key: KEYS.wrong, modern: true })]);
    const results = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? wrong : admin).callTool({ name: 'list_teams', arguments: {} })));
    expect(results.map((result) => result.isError === true)).toEqual([false, true, false, true]);
    expect(text(results[1]!)).toContain('The API key was refused');
    for (const result of results) expect(JSON.stringify(result)).not.toContain(KEY_MARK);
  });

  it('offers the write tools when asked, and says so', async () => {
    const c = await client(headerKey.url, { key: KEYS.admin });
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(offeredTools(true).map((tool) => tool.name));
    expect(headerKey.stderr()).toMatch(/each request's key from its X-APIKEY header/);
  });

  it('asks the person before removing someone, statelessly (a 2026-07-28 client answers the question): a no changes nothing', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(headerKey.url), { requestInit: { headers: { 'X-APIKEY': KEYS.admin } } });
    const c = new Client({ name: 'http-confirm', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } });
    const asked: string[] = [];
    c.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'decline' };
    });
    await c.connect(transport);
    opened.push(c);
    const result = await c.callTool({ name: 'remove_directory_entry', arguments: { email: 'katherine@acme.example' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Not done: the user said no/);
    expect(asked).toEqual([expect.stringContaining('remove a person from the directory in Pagerly (email: katherine@acme.example)')]);
    expect(person(s.sandbox, 'katherine@acme.example')).toBeDefined();
  });

  it('wrote no key on stderr', () => {
    for (const server of [envKey, headerKey]) expect(server.stderr()).not.toContain(KEY_MARK);
  });
});

describe('start-up', () => {
  it('warns when asked to listen beyond this machine', async () => {
    const server = await startHttp(['--host', '0.0.0.0', '--key-from-header'], { PAGERLY_BASE_URL: s.url });
    try {
      expect(server.stderr()).toMatch(/warning: listening on 0\.0\.0\.0, not this machine only: anyone who can reach this port can call the tools/);
    } finally {
      await server.close();
    }
  });
});
