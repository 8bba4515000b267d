import { describe, expect, it } from '@jest/globals';
import got from 'got';
import { createClient } from '../../shared/client.ts';
import type { Transport } from '../../shared/http/types.ts';
import { surfaces } from '../../scripts/surfaces.ts';
import { batteryCases, crossOriginRedirect, ECHO_CASES, KEY, keyEcho, sameOriginRedirect, STATUSES } from '../surfaces/battery.ts';
import { clientDriver, typedClientDriver } from '../surfaces/client.ts';
import { isGap, type SurfaceDriver } from '../surfaces/driver.ts';
import { drivers } from '../surfaces/index.ts';

/**
 * The hostile battery (test/surfaces/battery.ts) on every surface of the registry
 * (test/surfaces/index.ts), each through its real runtime.
 */
for (const driver of drivers) driver.useInTestFile?.();

describe('the registry', () => {
  it('has a driver for every surface the build makes, and names each once', () => {
    const driven = drivers.map((driver) => driver.surface).filter((name) => name !== undefined);
    // A description of the service (the OpenAPI document) has no runtime to drive, and a
    // single-purpose surface (the GitHub Action) makes none of the battery's reads: each names
    // where it is proven instead.
    const running = surfaces.filter((surface) => !surface.describesOnly && !surface.only);
    expect(driven.toSorted()).toEqual(running.map((surface) => surface.name).toSorted());
    for (const surface of surfaces) if (surface.describesOnly) expect(surface.describesOnly.provenBy).toMatch(/^test\//);
    for (const surface of surfaces) if (surface.only) expect(surface.only.provenBy).toMatch(/^test\//);
    expect(new Set(drivers.map((driver) => driver.name)).size).toBe(drivers.length);
  });

  it.each(drivers.map((driver) => [driver.name, driver] as const))('%s: every gap it states gives a reason', (_name, driver) => {
    const gaps = [driver.checkKey, driver.hang, driver.redirect.namesTargetHost, driver.redirect.sameOrigin].filter(isGap);
    for (const { gap } of gaps) expect(gap.length).toBeGreaterThan(40);
  });
});

describe.each(drivers.map((driver) => [driver.name, driver] as const))('%s against a hostile service', (_name, driver) => {
  const cases = batteryCases(driver);
  const run = cases.filter((c) => c.skip === undefined);
  const skipped = cases.filter((c) => c.skip !== undefined);
  if (run.length) it.each(run.map((c) => [c.name, c] as const))('%s', (_case, c) => c.run());
  if (skipped.length) it.skip.each(skipped.map((c) => [`${c.name} (${c.skip})`] as const))('%s', () => undefined);
});

/**
 * The battery is only worth its passes if it fails a surface that does wrong: here, drivers for
 * surfaces built wrong on purpose, each run through a case function directly.
 */
describe('the battery fails a surface that does wrong', () => {
  /** A transport as got does by default: it follows every redirect, X-APIKEY still on (got drops only the headers it knows). */
  const following: Transport = {
    async send(request) {
      const response = await got(request.url, {
        method: request.method,
        headers: request.headers,
        searchParams: request.query,
        body: request.body,
        responseType: 'text',
        throwHttpErrors: false,
        followRedirect: true,
        retry: { limit: 0 },
      });
      return { status: response.statusCode, url: response.url, headers: response.headers, body: response.body };
    },
  };
  const leaky = typedClientDriver('client on a got that follows redirects', ({ baseUrl, apiKey }) => createClient({ apiKey, baseUrl, transport: following }));

  it.each(STATUSES.flatMap((status) => (['read', 'write'] as const).map((operation) => [status, operation] as const)))(
    'a %i on a %s, followed with the key: the cross-origin case fails, naming the key the other origin got',
    async (status, operation) => {
      const failed = await crossOriginRedirect(leaky, operation, status).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failed).toBeInstanceOf(Error);
      // It failed where it should: on what reached the other origin, the key among it.
      expect(failed!.message).toContain('/collect');
      expect(failed!.message).toContain(KEY);
    },
  );

  it('a client that follows no redirect at all fails the same-origin case', async () => {
    const never: Transport = {
      async send(request) {
        const response = await got(request.url, {
          method: request.method,
          headers: request.headers,
          responseType: 'text',
          throwHttpErrors: false,
          followRedirect: false,
        });
        return { status: response.statusCode, url: response.url, headers: response.headers, body: response.body };
      },
    };
    const stuck = typedClientDriver('client that never follows', ({ baseUrl, apiKey }) => createClient({ apiKey, baseUrl, transport: never }));
    await expect(sameOriginRedirect(stuck, 'read')).rejects.toThrow(/not followed/);
  });

  it('a surface that puts the service text in its error as it came fails the echo cases', async () => {
    const quoting: SurfaceDriver = {
      ...clientDriver,
      name: 'quotes the service',
      read: async ({ baseUrl, apiKey }) => {
        const response = await fetch(`${baseUrl}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': apiKey } });
        return { ok: false, kind: 'server', native: 'server', own: true, message: `The service said: ${await response.text()}`, shown: {} };
      },
    };
    const { echo, placement } = ECHO_CASES[0]!;
    await expect(keyEcho(clientDriver, echo, placement)).resolves.toBeUndefined();
    await expect(keyEcho(quoting, echo, placement)).rejects.toThrow(/message/);
  });
});
