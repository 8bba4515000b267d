import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { refusingProxy, type RefusingProxy } from '../../packaging/refusing-proxy.ts';
import { clientRuntimes, installRuntimes } from '../../packaging/runtimes.ts';

/**
 * Bun's and Deno's fetch read the proxy variables themselves, each by its own rule, and tell a
 * refusal their own way (a 407 comes back as an answer; a refused CONNECT is an error in their
 * words). On the real runtimes, from npm: the client names the variable the runtime used, as
 * spelled, and the proxy's host, as on Node; never the proxy's credentials; never retried,
 * never "may have been done".
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../support/runtime-list-teams.ts', import.meta.url));
const HTTPS_BASE = 'https://api.pagerly.invalid';
const HTTP_BASE = 'http://api.pagerly.invalid';

interface Outcome {
  kind: string;
  retryable?: boolean;
  mayHaveApplied?: boolean;
  proxy?: { variable: string; host: string; status: number };
  message: string;
}

const proxies: Record<string, RefusingProxy> = {};
beforeAll(async () => {
  // Bun and Deno from npm into PAGERLY_RUNTIMES_CACHE, as the smoke test installs them (about 15 s the first time).
  installRuntimes();
  for (const name of ['plain', 'other', 'tunnel407', 'tunnel403', 'all']) proxies[name] = await refusingProxy(name === 'tunnel403' ? 403 : 407);
}, 180_000);
afterAll(async () => {
  for (const proxy of Object.values(proxies)) await proxy.close();
});

const runtimes = clientRuntimes().filter((runtime) => runtime.name === 'Bun' || runtime.name === 'Deno');
const hostOf = (proxy: RefusingProxy) => new URL(proxy.url).host;
const run = promisify(execFile);

/** The client listing the teams on the runtime, with only these variables set. */
async function listTeams(runtime: (typeof runtimes)[number], base: string, env: Record<string, string>, args = runtime.args): Promise<Outcome> {
  for (const proxy of Object.values(proxies)) proxy.seen.length = 0;
  // Deno reads the checkout's node_modules as it is and writes no lock file into it.
  const own = runtime.name === 'Deno' ? ['--node-modules-dir=manual', '--no-lock'] : [];
  const { stdout, stderr } = await run(runtime.command, [...args, ...own, SCRIPT, base], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  for (const proxy of Object.values(proxies)) expect(stdout + stderr).not.toContain(proxy.password);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
}

function expectRefusal(outcome: Outcome, proxy: { variable: string; host: string; status: number }) {
  expect(outcome).toMatchObject({ kind: 'proxy', retryable: false, mayHaveApplied: false, proxy });
  expect(outcome.message).toContain(`The proxy ${proxy.host} (from ${proxy.variable}) refused the request to api.pagerly.invalid`);
  expect(outcome.message).toContain('nothing reached the service');
  expect(outcome.message).not.toMatch(/may have been done|safe to retry|temporary/i);
}

describe.each(runtimes.map((runtime) => [runtime.name, runtime] as const))('on %s', (name, runtime) => {
  it('a 407 to a plain request names HTTP_PROXY and the proxy host, once, never retried', async () => {
    const outcome = await listTeams(runtime, HTTP_BASE, { HTTP_PROXY: proxies.plain!.url });
    expectRefusal(outcome, { variable: 'HTTP_PROXY', host: hostOf(proxies.plain!), status: 407 });
    expect(outcome.message).toContain(`put the proxy's user name and password in HTTP_PROXY (http://user:password@${hostOf(proxies.plain!)}`);
    expect(proxies.plain!.seen).toHaveLength(1);
  });

  it('with both spellings set, names the one the runtime used (Bun: lower case; Deno: upper case)', async () => {
    const outcome = await listTeams(runtime, HTTP_BASE, { http_proxy: proxies.plain!.url, HTTP_PROXY: proxies.other!.url });
    const used = name === 'Bun' ? { variable: 'http_proxy', proxy: proxies.plain! } : { variable: 'HTTP_PROXY', proxy: proxies.other! };
    expect(used.proxy.seen).toHaveLength(1);
    expectRefusal(outcome, { variable: used.variable, host: hostOf(used.proxy), status: 407 });
  });

  it('a CONNECT answered 407 names HTTPS_PROXY as spelled (https_proxy here)', async () => {
    const outcome = await listTeams(runtime, HTTPS_BASE, { https_proxy: proxies.tunnel407!.url });
    expectRefusal(outcome, { variable: 'https_proxy', host: hostOf(proxies.tunnel407!), status: 407 });
    expect(outcome.message).toContain('wants credentials');
    expect(proxies.tunnel407!.seen).toEqual(['api.pagerly.invalid:443']);
  });

  it('a CONNECT answered 403 is the proxy refusing (Deno does not say the status: 0)', async () => {
    const outcome = await listTeams(runtime, HTTPS_BASE, { HTTPS_PROXY: proxies.tunnel403!.url });
    expectRefusal(outcome, { variable: 'HTTPS_PROXY', host: hostOf(proxies.tunnel403!), status: name === 'Deno' ? 0 : 403 });
    expect(outcome.message).toContain('allowed through the proxy');
    expect(proxies.tunnel403!.seen).toEqual(['api.pagerly.invalid:443']);
  });

  it('ALL_PROXY, which both runtimes read, is named when it is the one used', async () => {
    const outcome = await listTeams(runtime, HTTPS_BASE, { ALL_PROXY: proxies.all!.url });
    expectRefusal(outcome, { variable: 'ALL_PROXY', host: hostOf(proxies.all!), status: 407 });
  });

  it('a 407 from a server NO_PROXY sends the request to directly names no variable', async () => {
    const gateway = createServer((request, response) => {
      request.resume();
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="gateway"' }).end();
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
      const outcome = await listTeams(runtime, base, { HTTP_PROXY: proxies.plain!.url, NO_PROXY: '127.0.0.1' });
      expect(proxies.plain!.seen).toEqual([]);
      expect(outcome).toMatchObject({ kind: 'proxy', retryable: false, proxy: { variable: '', host: '', status: 407 } });
      expect(outcome.message).toContain('A proxy between this machine and 127.0.0.1');
    } finally {
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });

  if (name === 'Deno')
    it('without --allow-env: the refusal all the same, no variable named, no prompt', async () => {
      const outcome = await listTeams(
        runtime,
        HTTPS_BASE,
        { HTTPS_PROXY: proxies.tunnel407!.url },
        runtime.args.filter((arg) => arg !== '--allow-env'),
      );
      expect(outcome).toMatchObject({ kind: 'proxy', retryable: false, mayHaveApplied: false, proxy: { variable: '', host: '', status: 407 } });
      expect(outcome.message).toContain('The proxy refused the request to api.pagerly.invalid with 407 Proxy Authentication Required');
      expect(outcome.message).toContain('in the proxy variable you set');
    });
});
