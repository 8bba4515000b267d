import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loopbackProxy, type LoopbackProxy } from '../../packaging/loopback-proxy.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { proxySettings } from '../../shared/transports/fetch-transport.ts';
import { KEYS, startCliSandbox, type CliSandbox } from '../cli/support.ts';

/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY, which Node's fetch ignores: a forward proxy on loopback
 * counts what goes through it, for the typed client on fetch and for the CLI in process (the
 * installed packages on Node 22 and 24: npm run smoke). The sandbox is plain HTTP on loopback,
 * so HTTP_PROXY is the variable that applies to it.
 */
let service: CliSandbox;
let proxy: LoopbackProxy;
beforeAll(async () => {
  service = await startCliSandbox();
  proxy = await loopbackProxy();
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const client = (proxyEnv: Record<string, string>) => createFetchClient({ apiKey: KEYS.admin, baseUrl: service.url, retries: 0, proxyEnv });

describe('the fetch transport behind a proxy', () => {
  it('sends each request through HTTP_PROXY, and gets the answer', async () => {
    proxy.seen.length = 0;
    const teams = await client({ HTTP_PROXY: proxy.url }).listTeams();
    expect(teams.length).toBeGreaterThan(0);
    expect(proxy.seen).toEqual([`${service.url}/pagerly/o/zapier/allteams`]);
  });

  it('reads the lower-case spelling too', async () => {
    proxy.seen.length = 0;
    await client({ http_proxy: proxy.url }).checkApiKey();
    expect(proxy.seen).toHaveLength(1);
  });

  it('keeps a host named in NO_PROXY away from the proxy', async () => {
    proxy.seen.length = 0;
    await expect(client({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }).listTeams()).resolves.toBeDefined();
    expect(proxy.seen).toEqual([]);
  });

  it('goes direct when no proxy is set', async () => {
    proxy.seen.length = 0;
    await client({}).listTeams();
    expect(proxy.seen).toEqual([]);
  });

  it('reads nothing but the variables it is given', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ NO_PROXY: '*' })).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' })).toEqual({ httpProxy: '', httpsProxy: 'http://b:2', noProxy: '' });
  });
});

describe('the CLI behind a proxy', () => {
  it('pagerly on-call --team sends its two requests through HTTP_PROXY, with nothing extra on stderr', async () => {
    proxy.seen.length = 0;
    const run = await service.cli(['on-call', '--team', 'Payments', '--json'], { env: { HTTP_PROXY: proxy.url } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.json().teams[0].name).toBe('Payments');
    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen[1]).toContain('/pagerly/o/currentusers?teamname=Payments');
  });

  it('honours NO_PROXY', async () => {
    proxy.seen.length = 0;
    const run = await service.cli(['teams'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(run.code).toBe(0);
    expect(proxy.seen).toEqual([]);
  });
});
