import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runAction, type ActionCore } from '../../github-action/runtime/main.ts';
import { refusingProxy, type RefusingProxy } from '../../packaging/refusing-proxy.ts';
import { installNode24, node24Bin } from '../../packaging/runtimes.ts';
import { ProxyError } from '../../shared/errors.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { bypassesProxy, proxyInUse, proxyRefusalStatus } from '../../shared/http/proxy-refusal.ts';
import { connect } from '../mcp/support.ts';

/**
 * A proxy that refuses (407 to a plain request or to a CONNECT; a CONNECT answered 403 or 502)
 * is configuration: one error kind on every surface that runs our transport (the client, the
 * CLI on Node 22 and 24, `pagerly mcp`, the GitHub Action), naming the variable and the proxy's
 * host, never its credentials; not retryable, and never "may have been done", since nothing got
 * past the proxy. Zapier (z.request) and n8n (its httpRequest) keep their platforms' own proxy
 * handling (docs/guarantees.md).
 */
const KEY = 'pgr_proxy-test-key-0123456789';
const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
/** An https base the proxy is asked to tunnel to: it never resolves, as nothing gets past the proxy. */
const HTTPS_BASE = 'https://api.pagerly.invalid';
/** An http base: the proxy is asked for it in absolute form, and answers 407. */
const HTTP_BASE = 'http://api.pagerly.invalid';

let plain: RefusingProxy;
const tunnels: Record<number, RefusingProxy> = {};
beforeAll(async () => {
  plain = await refusingProxy();
  for (const status of [407, 403, 502]) tunnels[status] = await refusingProxy(status);
  // The CLI's rows run on Node 24 too: installed from npm once (about 10 s), as the smoke test does.
  installNode24();
}, 120_000);
afterAll(async () => {
  await plain.close();
  for (const proxy of Object.values(tunnels)) await proxy.close();
});

/** What no output may hold: the proxy's password, the key, and advice that a retry or a check is due. */
function expectConfigurationOnly(text: string, proxy: RefusingProxy) {
  expect(text).not.toContain(proxy.password);
  expect(text).not.toContain(KEY);
  expect(text).not.toMatch(/may have been done|safe to retry|temporary/i);
}

const hostOf = (proxy: RefusingProxy) => new URL(proxy.url).host;

describe('which proxy refused', () => {
  it('names HTTPS_PROXY for an https base, HTTP_PROXY where it is the only one, as spelled', () => {
    expect(proxyInUse({ HTTPS_PROXY: 'http://u:p@corp:3128' }, HTTPS_BASE)).toEqual({ variable: 'HTTPS_PROXY', host: 'corp:3128' });
    expect(proxyInUse({ https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' }, HTTPS_BASE)).toEqual({ variable: 'https_proxy', host: 'a:1' });
    expect(proxyInUse({ HTTP_PROXY: 'corp:8080' }, HTTPS_BASE)).toEqual({ variable: 'HTTP_PROXY', host: 'corp:8080' });
    expect(proxyInUse({ HTTPS_PROXY: 'http://corp:3128' }, HTTP_BASE)).toBeUndefined();
  });

  it("names the variable by Bun's and Deno's own rules (test/shared/proxy-refusal-runtimes.test.ts runs them)", () => {
    const every = {
      https_proxy: 'http://a:1',
      HTTPS_PROXY: 'http://b:2',
      http_proxy: 'http://c:3',
      HTTP_PROXY: 'http://d:4',
      all_proxy: 'e:5',
      ALL_PROXY: 'f:6',
    };
    expect(proxyInUse(every, HTTPS_BASE, 'bun')).toEqual({ variable: 'https_proxy', host: 'a:1' });
    expect(proxyInUse(every, HTTPS_BASE, 'deno')).toEqual({ variable: 'ALL_PROXY', host: 'f:6' });
    expect(proxyInUse({ HTTP_PROXY: 'http://d:4', http_proxy: 'http://c:3' }, HTTP_BASE, 'deno')).toEqual({ variable: 'HTTP_PROXY', host: 'd:4' });
    // Neither lets an https URL use HTTP_PROXY, as undici does.
    expect(proxyInUse({ HTTP_PROXY: 'http://d:4' }, HTTPS_BASE, 'bun')).toBeUndefined();
    expect(proxyInUse({ HTTP_PROXY: 'http://d:4' }, HTTPS_BASE, 'deno')).toBeUndefined();
    expect(proxyInUse({ HTTP_PROXY: 'http://d:4', all_proxy: 'e:5' }, HTTPS_BASE, 'bun')).toEqual({ variable: 'all_proxy', host: 'e:5' });
    // An empty variable is not set.
    expect(proxyInUse({ https_proxy: '', HTTPS_PROXY: 'http://b:2' }, HTTPS_BASE, 'bun')).toEqual({ variable: 'HTTPS_PROXY', host: 'b:2' });
  });

  it('reads NO_PROXY as curl does: *, hosts, domains with or without a dot, ports', () => {
    expect(bypassesProxy({ NO_PROXY: '*' }, HTTPS_BASE)).toBe(true);
    expect(bypassesProxy({ no_proxy: 'localhost, .pagerly.invalid' }, HTTPS_BASE)).toBe(true);
    expect(bypassesProxy({ NO_PROXY: 'pagerly.invalid' }, HTTPS_BASE)).toBe(true);
    expect(bypassesProxy({ NO_PROXY: 'api.pagerly.invalid:443' }, HTTPS_BASE)).toBe(true);
    expect(bypassesProxy({ NO_PROXY: 'api.pagerly.invalid:8443' }, HTTPS_BASE)).toBe(false);
    expect(bypassesProxy({ NO_PROXY: 'xpagerly.invalid,invalid.example' }, 'https://pagerly.invalid')).toBe(false);
    expect(bypassesProxy({ NO_PROXY: '127.0.0.1' }, 'http://127.0.0.1:4010')).toBe(true);
    expect(bypassesProxy({ NO_PROXY: '[::1]' }, 'http://[::1]:4010')).toBe(true);
    expect(bypassesProxy({}, HTTPS_BASE)).toBe(false);
  });

  it("reads undici's refusals through the cause chain, and nothing else", () => {
    const plain407 = new TypeError('fetch failed', { cause: Object.assign(new Error('Proxy Authentication Required (407)'), { code: 'UND_ERR_INVALID_ARG' }) });
    const tunnel403 = new TypeError('fetch failed', {
      cause: new Error('Request was cancelled.', {
        cause: Object.assign(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }),
      }),
    });
    expect(proxyRefusalStatus(plain407)).toBe(407);
    expect(proxyRefusalStatus(tunnel403)).toBe(403);
    // Bun's and Deno's words, as their fetch gives them (Deno does not say a refused tunnel's status).
    expect(proxyRefusalStatus(Object.assign(new Error('Proxy refused to open a tunnel: 502 Bad Gateway'), { code: 'ERR_PROXY_TUNNEL' }))).toBe(502);
    const deno = (said: string) =>
      new TypeError('fetch failed', { cause: new Error(`error sending request for url (https://api.pagerly.invalid/x): client error (Connect): ${said}`) });
    expect(proxyRefusalStatus(deno('proxy authentication required'))).toBe(407);
    expect(proxyRefusalStatus(deno('unsuccessful tunnel'))).toBe(0);
    expect(proxyRefusalStatus(deno('dns error: failed to lookup address information'))).toBeUndefined();
    expect(
      proxyRefusalStatus(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })),
    ).toBeUndefined();
    const loop: { message: string; cause?: unknown } = { message: 'x' };
    loop.cause = loop;
    expect(proxyRefusalStatus(loop)).toBeUndefined();
  });
});

describe('the typed client on fetch', () => {
  const client = (baseUrl: string, proxyEnv: Record<string, string>) => createFetchClient({ apiKey: KEY, baseUrl, retries: 2, backoffMs: 1, proxyEnv });

  it('a 407 to a plain request through HTTP_PROXY is a ProxyError: not retried, not retryable, nothing done', async () => {
    plain.seen.length = 0;
    const error = await client(HTTP_BASE, { HTTP_PROXY: plain.url })
      .createOrUpdateIncident({ title: 'Deploy failed' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({
      code: 'proxy',
      retryable: false,
      mayHaveApplied: false,
      proxyVariable: 'HTTP_PROXY',
      proxyHost: hostOf(plain),
      proxyStatus: 407,
    });
    expect((error as Error).message).toContain(`The proxy ${hostOf(plain)} (from HTTP_PROXY) refused`);
    expectConfigurationOnly((error as Error).message, plain);
    expect(plain.seen).toHaveLength(1);
  });

  it.each([407, 403, 502])('a CONNECT answered %i through HTTPS_PROXY is a ProxyError naming HTTPS_PROXY', async (status) => {
    const proxy = tunnels[status]!;
    proxy.seen.length = 0;
    const error = await client(HTTPS_BASE, { HTTPS_PROXY: proxy.url })
      .listTeams()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({ retryable: false, mayHaveApplied: false, proxyVariable: 'HTTPS_PROXY', proxyStatus: status });
    expect((error as Error).message).toContain(status === 407 ? 'wants credentials' : 'NO_PROXY');
    expectConfigurationOnly((error as Error).message, proxy);
    expect(proxy.seen).toEqual(['api.pagerly.invalid:443']);
  });
});

const runCli = promisify(execFile);

/** `pagerly ...argv` as a person runs it, on a given Node; exit code and both streams. */
async function pagerly(node: string, argv: readonly string[], env: Record<string, string>) {
  return runCli(node, [BIN, ...argv], { env: { PATH: process.env.PATH ?? '', PAGERLY_API_KEY: KEY, ...env }, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const nodes = [
  ['Node 22', process.execPath],
  ['Node 24', node24Bin],
] as const;

describe.each(nodes)('the CLI on %s', (_name, node) => {
  it('pagerly teams with HTTP_PROXY answering 407: exit 78, the variable and host named', async () => {
    const run = await pagerly(node, ['teams', '--base-url', HTTP_BASE], { HTTP_PROXY: plain.url });
    expect(run.code).toBe(78);
    expect(run.stderr).toContain(`The proxy ${hostOf(plain)} (from HTTP_PROXY) refused the request`);
    expectConfigurationOnly(run.stdout + run.stderr, plain);
  });

  it('pagerly --json incident create with HTTP_PROXY answering 407: exit 78, not 5, not "may have been done"', async () => {
    const run = await pagerly(node, ['--json', 'incident', 'create', '--title', 'Deploy failed', '--base-url', HTTP_BASE], { HTTP_PROXY: plain.url });
    expect(run.code).toBe(78);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'proxy', retryable: false } });
    expectConfigurationOnly(run.stdout + run.stderr, plain);
  });

  it('pagerly --json incident create through a proxy no variable names, answering 407: exit 78, never "may have been done"', async () => {
    const intercepting = createServer((request, response) => {
      request.resume();
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
    });
    await new Promise<void>((resolve) => intercepting.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(intercepting.address() as AddressInfo).port}`;
      const run = await pagerly(node, ['--json', 'incident', 'create', '--title', 'Deploy failed', '--base-url', base], {});
      expect(run.code).toBe(78);
      const { error } = JSON.parse(run.stderr) as { error: { code: string; retryable: boolean; message: string } };
      expect(error).toMatchObject({ code: 'proxy', retryable: false });
      expect(error.message).toContain('answered 407 Proxy Authentication Required; nothing reached the service');
      expectConfigurationOnly(run.stdout + run.stderr, plain);
    } finally {
      intercepting.closeAllConnections();
      await new Promise((resolve) => intercepting.close(resolve));
    }
  });

  it('pagerly --json teams with HTTPS_PROXY whose CONNECT answers 407: exit 78, retryable false', async () => {
    const proxy = tunnels[407]!;
    const run = await pagerly(node, ['--json', 'teams', '--base-url', HTTPS_BASE], { HTTPS_PROXY: proxy.url });
    expect(run.code).toBe(78);
    const { error } = JSON.parse(run.stderr) as { error: { code: string; retryable: boolean; message: string } };
    expect(error).toMatchObject({ code: 'proxy', retryable: false });
    expect(error.message).toContain('(from HTTPS_PROXY)');
    expectConfigurationOnly(run.stdout + run.stderr, proxy);
  });
});

describe('pagerly mcp', () => {
  it('a tool call through a proxy that answers 407 gives the proxy error as the tool result', async () => {
    const session = await connect([], { PAGERLY_API_KEY: KEY, PAGERLY_BASE_URL: HTTP_BASE, HTTP_PROXY: plain.url });
    try {
      const result = (await session.client.callTool({ name: 'list_teams', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      const text = result.content.map((part) => part.text).join('\n');
      expect(text).toContain('(from HTTP_PROXY) refused');
      expectConfigurationOnly(text + session.stderr(), plain);
    } finally {
      await session.close();
    }
  });
});

describe('the GitHub Action', () => {
  it('fails the step with the proxy error, and sets no output', async () => {
    const events: string[] = [];
    const inputs: Record<string, string> = { 'api-key': KEY, 'base-url': HTTP_BASE, title: 'Deploy failed' };
    const core: ActionCore = {
      getInput: ((name: string) => inputs[name] ?? '') as ActionCore['getInput'],
      setSecret: () => undefined,
      setOutput: (name, value) => void events.push(`output ${name}=${value}`),
      setFailed: (message) => void events.push(`failed ${typeof message === 'string' ? message : message.message}`),
      info: (message) => void events.push(`info ${message}`),
      warning: (message) => void events.push(`warning ${message}`),
    };
    const before = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = plain.url;
    try {
      await runAction(core);
    } finally {
      if (before === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = before;
    }
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/^failed The proxy .* \(from HTTP_PROXY\) refused the request/);
    expectConfigurationOnly(events[0]!, plain);
  });
});
