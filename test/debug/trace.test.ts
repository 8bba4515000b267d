import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { refusingProxy } from '../../packaging/refusing-proxy.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { TRACE_LINE_PREFIX } from '../../shared/http/trace.ts';
import { secretForms } from '../../shared/redact.ts';
import { KEYS, run, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { INITIALIZE, isJsonRpc, rawSession, startHttp } from '../mcp/support.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';

const exec = promisify(execFile);

/** One traced entry's first line: method, URL, status, milliseconds, bytes of the answer. */
const ENTRY = /^\* (GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3}) (\d+) ms (\d+) bytes$/gm;

/**
 * The trace in a stream it shares with other output: the lines behind `pagerly-debug: `, without
 * it. Every assertion on stderr reads it through this, so a line left unmarked is no trace.
 */
const traced = (stream: string) =>
  stream
    .split('\n')
    .filter((line) => line.startsWith(TRACE_LINE_PREFIX))
    .map((line) => line.slice(TRACE_LINE_PREFIX.length))
    .join('\n');

let cli: CliSandbox;
beforeAll(async () => {
  cli = await startCliSandbox();
});
afterAll(() => cli.close());

/** Every form the shared redaction knows of the key: none may appear. */
function expectNoKey(text: string, key: string) {
  for (const form of secretForms(key)) expect(text).not.toContain(form);
}

describe('pagerly --debug', () => {
  it('traces each request on stderr: method, URL, status, time, bytes, headers with the key redacted', async () => {
    const result = await cli.cli(['--debug', 'teams']);
    expect(result.code).toBe(0);
    const entries = [...traced(result.stderr).matchAll(ENTRY)];
    expect(entries).toHaveLength(1);
    const [, method, url, status, , bytes] = entries[0]!;
    expect([method, url, status]).toEqual(['GET', `${cli.url}/pagerly/o/zapier/allteams`, '200']);
    expect(Number(bytes)).toBeGreaterThan(10);
    expect(traced(result.stderr)).toMatch(/^> x-apikey: \[redacted\]$/m);
    expect(traced(result.stderr)).toMatch(/^> user-agent: pagerly-cli\/\S+$/m);
    expect(traced(result.stderr)).toMatch(/^< content-type: application\/json/m);
    // Never a body: a team's name is in the answer, not in the trace.
    expect(result.stdout).toContain('Payments');
    expect(result.stderr).not.toContain('Payments');
    expectNoKey(result.stderr, KEYS.admin);
    // Every line of it marked: stderr holds nothing else here.
    for (const line of result.stderr.split('\n').filter(Boolean)) expect(line.startsWith(TRACE_LINE_PREFIX)).toBe(true);
  });

  it('traces nothing without --debug, and the same with PAGERLY_DEBUG=1', async () => {
    expect((await cli.cli(['teams'])).stderr).not.toContain('* GET');
    expect(traced((await cli.cli(['teams'], { env: { PAGERLY_DEBUG: '1' } })).stderr)).toMatch(ENTRY);
    expect((await cli.cli(['teams'], { env: { PAGERLY_DEBUG: '0' } })).stderr).not.toContain('* GET');
  });

  it('keeps --json stdout one JSON document', async () => {
    const result = await cli.cli(['--json', '--debug', 'teams']);
    expect(result.code).toBe(0);
    expect(() => result.json()).not.toThrow();
    expect(traced(result.stderr)).toMatch(ENTRY);
    expect(result.stdout).not.toContain('x-apikey');
  });

  it('shows the key in no form when the server echoes it in response headers, each encoding', async () => {
    const key = 'pgr_debug"key"\\/+&0123456789abcdef';
    const server = await loopbackServer((request, response) => {
      const sent = String(request.headers['x-apikey']);
      const forms = secretForms(sent);
      forms.forEach((form, at) => {
        response.setHeader(`x-echo-${at}`, form);
      });
      response.setHeader('x-echo-raw', `key=${sent}`);
      response.setHeader('content-type', 'application/json');
      response.end('[]');
    });
    try {
      const result = await run(['--debug', '--base-url', server.url, 'teams'], { env: { PAGERLY_API_KEY: key } });
      expect(traced(result.stderr)).toMatch(/^< x-echo-0: \[redacted\]$/m);
      expect(traced(result.stderr).match(/^< x-echo-\d+: /gm)!.length).toBe(secretForms(key).length);
      expectNoKey(result.stderr, key);
      expectNoKey(result.stdout, key);
    } finally {
      await server.close();
    }
  });

  it('shows each retry as an entry of its own, and a request with no answer by its failure code', async () => {
    let calls = 0;
    const server = await loopbackServer((_request, response) => {
      calls += 1;
      response.statusCode = calls === 1 ? 503 : 200;
      response.setHeader('retry-after', '0');
      response.end('[]');
    });
    try {
      const result = await cli.cli(['--debug', '--base-url', server.url, 'teams']);
      expect([...traced(result.stderr).matchAll(ENTRY)].map((entry) => entry[3])).toEqual(['503', '200']);
    } finally {
      await server.close();
    }
    const closed = await closedPort();
    const failed = await cli.cli(['--debug', '--retries', '1', '--base-url', closed, 'teams']);
    expect(traced(failed.stderr).match(/^\* GET \S+\/allteams no answer \(ECONNREFUSED\) \d+ ms$/gm)).toHaveLength(2);
  });

  it('shows each redirect hop as an entry of its own', async () => {
    const server = await loopbackServer((request, response) => {
      if (!request.url!.startsWith('/moved')) {
        response.statusCode = 307;
        response.setHeader('location', `/moved${request.url}`);
        response.end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end('[]');
    });
    try {
      const result = await cli.cli(['--debug', '--base-url', server.url, 'teams']);
      const entries = [...traced(result.stderr).matchAll(ENTRY)];
      expect(entries.map((entry) => [entry[3], new URL(entry[2]!).pathname])).toEqual([
        ['307', '/pagerly/o/zapier/allteams'],
        ['200', '/moved/pagerly/o/zapier/allteams'],
      ]);
      expect(entries.map((entry) => entry[5])).toEqual(['0', '2']);
    } finally {
      await server.close();
    }
  });

  it('keeps the proxy credentials out of the trace', async () => {
    const proxy = await loopbackServer((request, response) => {
      // A forward proxy's answer: it got the absolute URL and its credentials.
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-seen-auth', String(request.headers['proxy-authorization'] ?? ''));
      response.end('[]');
    });
    try {
      const proxyUrl = proxy.url.replace('http://', 'http://proxyuser:s3cretProxyPass@');
      const result = await run(['--debug', '--base-url', 'http://api.example.test', 'teams'], { env: { PAGERLY_API_KEY: KEYS.admin, HTTP_PROXY: proxyUrl } });
      expect(traced(result.stderr)).toMatch(ENTRY);
      expect(result.stderr).not.toContain('s3cretProxyPass');
      expectNoKey(result.stderr, 'proxyuser:s3cretProxyPass');
    } finally {
      await proxy.close();
    }
  });

  it('says the proxy refused, plain request or CONNECT, without its credentials', async () => {
    const proxy = await refusingProxy(407);
    try {
      const plain = await run(['--debug', '--base-url', 'http://api.pagerly.invalid', 'teams'], {
        env: { PAGERLY_API_KEY: KEYS.admin, HTTP_PROXY: proxy.url },
      });
      expect(plain.code).toBe(78);
      expect(traced(plain.stderr)).toMatch(/^\* GET http:\/\/api\.pagerly\.invalid\/pagerly\/o\/zapier\/allteams refused by the proxy \(407\) \d+ ms$/m);
      const tunnel = await run(['--debug', '--base-url', 'https://api.pagerly.invalid', 'teams'], {
        env: { PAGERLY_API_KEY: KEYS.admin, HTTPS_PROXY: proxy.url },
      });
      expect(tunnel.code).toBe(78);
      expect(traced(tunnel.stderr)).toMatch(/^\* GET https:\/\/api\.pagerly\.invalid\/\S+ refused by the proxy \(407\) \d+ ms$/m);
      for (const text of [plain.stderr, tunnel.stderr]) {
        expect(text).not.toContain(proxy.password);
        expectNoKey(text, KEYS.admin);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('the trace of an answer cut off', () => {
  it('says the answer was not read, never that there was none', async () => {
    const server = await loopbackServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify([{ name: 'x'.repeat(4096) }]));
    });
    const entries: string[] = [];
    try {
      const client = createFetchClient({ apiKey: KEYS.admin, baseUrl: server.url, maxBodyBytes: 1024, retries: 0, trace: (entry) => entries.push(entry) });
      await expect(client.listTeams({})).rejects.toThrow();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatch(/^\* GET \S+\/allteams answer not read \(ERR_BODY_TOO_LARGE\) \d+ ms$/m);
    } finally {
      await server.close();
    }
  });
});

describe('the headers a hop shows', () => {
  it('are those sent: after a 303 the GET carries no content-type', async () => {
    const server = await loopbackServer((request, response) => {
      request.resume();
      if (request.method === 'POST') {
        response.statusCode = 303;
        response.setHeader('location', '/o/incident/inc_1');
        response.end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: 'inc_1' }));
    });
    const entries: string[] = [];
    try {
      const client = createFetchClient({ apiKey: KEYS.admin, baseUrl: server.url, retries: 0, trace: (entry) => entries.push(entry) });
      await client.createOrUpdateIncident({ title: 'Traced', severity: 'P3' });
      expect(entries.map((entry) => entry.split('\n')[0]!.split(' ').slice(0, 2))).toEqual([
        ['*', 'POST'],
        ['*', 'GET'],
      ]);
      expect(entries[0]).toMatch(/^> content-type: application\/json/m);
      expect(entries[1]).not.toMatch(/^> content-type:/m);
    } finally {
      await server.close();
    }
  });
});

describe('PAGERLY_DEBUG outside the CLI', () => {
  it('traces the typed client (@pagerly/client) on stderr', async () => {
    const script = `import { createClient } from './client/index.ts';
const client = createClient({ apiKey: ${JSON.stringify(KEYS.admin)}, baseUrl: ${JSON.stringify(cli.url)} });
const teams = await client.listTeams({});
process.stdout.write('done');`;
    const node = join(process.cwd(), 'node_modules/.bin/node');
    const { stdout, stderr } = await exec(node, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', PAGERLY_DEBUG: '1' },
      encoding: 'utf8',
    });
    expect(stdout).toBe('done');
    expect(traced(stderr)).toMatch(ENTRY);
    expect(traced(stderr)).toMatch(/^> x-apikey: \[redacted\]$/m);
    expectNoKey(stderr, KEYS.admin);
  });

  it('traces pagerly mcp on stderr, stdout holding only JSON-RPC', async () => {
    const session = await rawSession([], { PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: cli.url, PAGERLY_DEBUG: '1' }, [
      ...INITIALIZE,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_teams', arguments: {} } },
    ]);
    const lines = session.stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(isJsonRpc(line)).toBe(true);
    expect(traced(session.stderr)).toMatch(ENTRY);
    expectNoKey(session.stderr + session.stdout, KEYS.admin);
  });

  it('traces pagerly mcp --http on stderr, the key taken from the request header redacted', async () => {
    const server = await startHttp(['--key-from-header'], { PAGERLY_BASE_URL: cli.url, PAGERLY_DEBUG: '1' });
    const client = new Client({ name: 'trace-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'X-APIKEY': KEYS.admin } } }));
      const result = await client.callTool({ name: 'list_teams', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(traced(server.stderr())).toMatch(ENTRY);
      expect(traced(server.stderr())).toMatch(/^> x-apikey: \[redacted\]$/m);
      expectNoKey(server.stderr(), KEYS.admin);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
