import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loopbackProxy, type LoopbackProxy } from '../../packaging/loopback-proxy.ts';
import { makeOrg } from '../support/source-stand-ins/org.ts';
import type { StandIn } from '../support/source-stand-ins/stand-in.ts';
import { makeCertificates } from '../support/tls-certificates.ts';
import { runImport, SOURCE_KEYS, sourceEnv, standInFor, tempFolder } from './import-support.ts';
import { KEY_MARK } from './support.ts';

/**
 * The import reaches its source as every other command reaches Pagerly: through HTTP_PROXY or
 * HTTPS_PROXY (NO_PROXY honoured), trusting a private authority given in NODE_EXTRA_CA_CERTS
 * (Node reads it at start: the real `pagerly` is run for that), a certificate it cannot verify
 * being a setting to fix (exit 78), never retried.
 */

const folder = tempFolder();
let proxy: LoopbackProxy;
let certs: ReturnType<typeof makeCertificates>;
beforeAll(async () => {
  proxy = await loopbackProxy();
  certs = makeCertificates();
});
afterAll(async () => {
  await proxy.close();
  certs.remove();
  folder.remove();
});

describe('behind a proxy', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor('pagerduty', makeOrg(150, 'pagerduty'));
  });
  afterAll(() => standIn.close());

  it('sends every request through HTTP_PROXY', async () => {
    proxy.seen.length = 0;
    const r = await runImport('pagerduty', standIn, folder.path('proxied.yaml'), [], { HTTP_PROXY: proxy.url });
    expect(r.code).toBe(0);
    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen.every((url) => url.startsWith(`${standIn.url}/users?`))).toBe(true);
  });

  it('keeps a host named in NO_PROXY away from it', async () => {
    proxy.seen.length = 0;
    const r = await runImport('pagerduty', standIn, folder.path('not-proxied.yaml'), [], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(r.code).toBe(0);
    expect(proxy.seen).toEqual([]);
  });
});

describe('the real pagerly, over HTTPS from a private authority', () => {
  const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));
  const pagerly = (args: readonly string[], env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor('opsgenie', makeOrg(30, 'opsgenie'), { tls: certs.signed });
  });
  afterAll(() => standIn.close());

  it('exits 78 naming NODE_EXTRA_CA_CERTS when the authority is unknown; nothing written, no retry', async () => {
    const out = folder.path('untrusted.yaml');
    const r = await pagerly(['directory', 'import', 'opsgenie', '--out', out], sourceEnv('opsgenie', standIn.url) as Record<string, string>);
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(r.stderr).not.toContain('retrying');
    expect(existsSync(out)).toBe(false);
    expect(standIn.requests).toHaveLength(0);
  });

  it('imports once NODE_EXTRA_CA_CERTS names the authority, through HTTPS_PROXY too', async () => {
    proxy.seen.length = 0;
    const out = folder.path('trusted.yaml');
    const r = await pagerly(['directory', 'import', 'opsgenie', '--out', out], {
      ...(sourceEnv('opsgenie', standIn.url) as Record<string, string>),
      NODE_EXTRA_CA_CERTS: certs.authority.certFile,
      HTTPS_PROXY: proxy.url,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Read 30 people from Opsgenie');
    expect(`${r.stdout}${r.stderr}${readFileSync(out, 'utf8')}`).not.toContain(KEY_MARK);
    // HTTPS through a proxy is a CONNECT tunnel: the proxy saw the host, never the request (nor its key).
    expect(new Set(proxy.seen)).toEqual(new Set([new URL(standIn.url).host]));
    expect(standIn.requests.every((seen) => seen.headers.authorization === `GenieKey ${SOURCE_KEYS.opsgenie}`)).toBe(true);
  });
});
