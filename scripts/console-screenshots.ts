// `npm run docs:console-screenshots`: pictures of the sandbox console for docs/sandbox.md, taken
// in Debian's Chromium through playwright-core. A sandbox on the demo seed (fixed clock) gets a
// few incidents through the typed client, a hook subscribed at a loopback receiver, a move of
// the clock past the 09:00 handover (so the on-call change and its delivery show) and a fault
// that an API call meets; then each part of the page is captured. Everything started (sandbox,
// receiver, Chromium) is stopped on every path, Ctrl-C included.
import { mkdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../packaging/headless-chromium.ts';
import { createSandbox, demoKeys, type Sandbox } from '../sandbox/index.ts';
import { createFetchClient } from '../shared/fetch-client.ts';

const repoRoot = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { out: { type: 'string', default: join(repoRoot, 'docs', 'images', 'console') } } });
const VIEWPORT = { width: 1280, height: 800 };

let sandbox: Sandbox | undefined;
let receiver: Server | undefined;
let browser: Browser | undefined;
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await browser?.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
    receiver?.closeAllConnections();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: stopping Chromium and the sandbox`);
    void stopAll().then(() => process.exit(130));
  });

async function main(): Promise<void> {
  const started = performance.now();
  receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/on-call`;

  sandbox = await createSandbox({ delivery: { retryDelaysMs: [200] } });
  const url = await sandbox.listen();
  const admin = createFetchClient({ apiKey: demoKeys.acmeAdmin, baseUrl: url, retries: 0 });
  const user = createFetchClient({ apiKey: demoKeys.acmeUser, baseUrl: url, retries: 0 });

  browser = await launchChromium();
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await page.goto(`${url}/`);
  await page.locator('#feed-state', { hasText: 'Live' }).waitFor();

  // What a morning of automations would leave, made while the page is open: it arrives live.
  await admin.subscribeZapierHook({ url: hookUrl, teamname: 'Platform' });
  await admin.createOrUpdateIncident({ title: 'Deploy 4512 failed', severity: 'P2', teamname: 'Platform' });
  await user.createOrUpdateIncident({ title: 'Checkout latency above 2 s', severity: 'P1', teamname: 'Payments' });
  await admin.createOrUpdateIncident({ id: 'inc_0001', title: 'Deploy 4512 failed', status: 'resolved' });
  await admin.listTeams();
  await page.locator('[data-advance-hours="1"]').click();
  await page.locator('#deliveries-rows tr', { hasText: 'delivered' }).waitFor();
  await sandbox.faults.inject({ path: '/o/incident', status: 503, body: '[{"Error":"Service unavailable"}]' });
  await admin.createOrUpdateIncident({ title: 'Meets the injected fault' }).catch(() => undefined);
  await page.locator('#journal-rows tr', { hasText: '503' }).waitFor();
  await page.locator('#clock-now', { hasText: '09:00' }).waitFor();
  // Let the last batch of the feed render.
  await page.waitForTimeout(300);

  mkdirSync(values.out!, { recursive: true });
  const written: string[] = [];
  const shoot = async (file: string, selector: string) => {
    const path = join(values.out!, file);
    await page.locator(selector).screenshot({ path, type: 'png' });
    written.push(`${file} (${(statSync(path).size / 1024).toFixed(0)} KB)`);
  };
  await page.evaluate('window.scrollTo(0, 0)');
  const top = join(values.out!, 'console-overview.png');
  await page.screenshot({ path: top, type: 'png' });
  written.push(`console-overview.png (${(statSync(top).size / 1024).toFixed(0)} KB)`);
  await shoot('console-incidents.png', '#incidents');
  await shoot('console-hooks.png', '#hooks');
  await shoot('console-journal.png', '#journal');
  console.log(`Wrote ${written.join(', ')} to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

try {
  await main();
} catch (error) {
  console.error(`Console screenshots failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
