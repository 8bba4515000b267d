// What the console's browser tests share: Debian's Chromium or a skip that says why, a browser
// stopped on every path (Ctrl-C included), and waits that the page's CSP allows.
import { afterAll, beforeAll, describe, expect, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../packaging/headless-chromium.ts';
import type { SandboxOptions } from '../../sandbox/index.ts';
import { startSandbox, type Running } from './support.ts';

// .ci/run sets PAGERLY_CONSOLE_BROWSER=required once it has installed Chromium: there a missing browser fails.
const required = process.env.PAGERLY_CONSOLE_BROWSER === 'required';

/** `describe` where Chromium is (or must be), else `describe.skip`, saying so once. */
export function describeInChromium(name: string, body: () => void): void {
  if (!existsSync(CHROMIUM))
    console.warn(`${required ? 'Failing' : 'Skipping'} "${name}": Debian's Chromium is not at ${CHROMIUM} (apt-get install chromium; .ci/run installs it).`);
  // A browser's round trips take seconds, not milliseconds, on a loaded 2-core CI machine.
  (existsSync(CHROMIUM) || required ? describe : describe.skip)(`${name} (Chromium at ${CHROMIUM})`, () => {
    jest.setTimeout(60_000);
    body();
  });
}

/** Chromium, closed by `stop()` and by Ctrl-C or SIGTERM while the tests run. */
export async function startChromium(): Promise<{ browser: Browser; stop(): Promise<void> }> {
  const browser = await launchChromium({ timeout: 30_000 });
  const stopBrowser = () => browser.close().catch(() => undefined);
  const onSignal = () => void stopBrowser();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    browser,
    async stop() {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      await stopBrowser();
    },
  };
}

/**
 * A sandbox and Chromium for the tests of a `describe`, started before them and stopped after,
 * with no Chromium left among this process's children.
 */
export function sandboxAndChromium(options: SandboxOptions = {}): { readonly running: Running; readonly browser: Browser } {
  let running: Running | undefined;
  let chromium: Awaited<ReturnType<typeof startChromium>> | undefined;
  beforeAll(async () => {
    running = await startSandbox(options);
    chromium = await startChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.stop();
    await running?.sandbox.close();
    expect(childProcesses()).not.toMatch(/chrom/i);
  }, 30_000);
  return {
    get running() {
      if (!running) throw new Error('The sandbox is not started yet');
      return running;
    },
    get browser() {
      if (!chromium) throw new Error('Chromium is not started yet');
      return chromium.browser;
    },
  };
}

/** This process's children (`ps` exits 1 when there are none): a test ends with no Chromium among them. */
export function childProcesses(): string {
  try {
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

/**
 * Waits until `expression` is true in the page. Polled through the DevTools protocol, which the
 * page's CSP does not govern: Playwright's waitForFunction evaluates a string, which the CSP
 * (no eval) refuses.
 */
export async function until(page: Page, expression: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(`Boolean(${expression})`))) {
    if (Date.now() > deadline) throw new Error(`Not true after ${timeoutMs} ms: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Presses Tab (at most 200 times) until the element matching `selector` has the focus. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 200; presses += 1) {
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * Event streams held open as another local program would hold them (node:http, no pool), until
 * `release()`; resolves once `count` are held. One refused because every stream is taken (503)
 * is asked again until the deadline: the sandbox frees the slot of a stream a closed page held
 * only once it sees that connection end, a moment later.
 */
export async function holdStreams(url: string, count: number, timeoutMs = 20_000): Promise<{ statuses: number[]; release(): void }> {
  const requests = new Set<ClientRequest>();
  const deadline = Date.now() + timeoutMs;
  let released = false;
  const release = () => {
    released = true;
    for (const held of requests) held.destroy();
  };
  const open = () =>
    new Promise<{ held: ClientRequest; status: number }>((resolve, reject) => {
      const held = request(`${url}/_sandbox/console/events`, { agent: false }, (answer) => {
        answer.resume();
        resolve({ held, status: answer.statusCode ?? 0 });
      });
      held.on('error', reject);
      held.end();
      requests.add(held);
    });
  const hold = async (): Promise<number> => {
    for (;;) {
      const { held, status } = await open();
      if (status !== 503 || Date.now() > deadline) return status;
      held.destroy();
      requests.delete(held);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Released meanwhile (another stream failed): no new stream outlives the release.
      if (released) return status;
    }
  };
  const statuses = await Promise.all(Array.from({ length: count }, hold)).catch((error: unknown) => {
    release();
    throw error;
  });
  return { statuses, release };
}
