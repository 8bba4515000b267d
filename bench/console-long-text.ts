// `node bench/console-long-text.ts`: what names far longer than the API allows cost the sandbox
// console, on the server (bytes of the feed's snapshot and of a page of teams and of people) and
// in Debian's Chromium (from navigation until both tables are filled and the feed is live, then
// a narrower window: every table laid out again). Three worlds (bench/long-name-seeds.ts): the
// demo seed; the demo seed with one team and one person named 100,000 characters of Thai; and a
// hostile seed, 60 teams and 60 people each named 100 KB, all on call, in an organization named so.
// Each world gets a sandbox and a browser page of its own; everything started is stopped on
// every path, Ctrl-C included. Without /usr/bin/chromium it prints the server's figures only.
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../packaging/headless-chromium.ts';
import { createSandbox, demoSeed, type Sandbox, type Seed } from '../sandbox/index.ts';
import { demoWithLongNames, hostileSeed } from './long-name-seeds.ts';

const TIMEOUT_MS = 90_000;

/** The bytes of an answer; for the event stream, of its first event (the snapshot), then the request is dropped. */
function bytesOf(url: string, firstEventOnly = false): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let text = '';
    const req = request(url, { agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (!firstEventOnly) return;
        text += chunk.toString('latin1');
        const end = text.indexOf('\n\n', text.indexOf('event: snapshot'));
        if (text.includes('event: snapshot') && end !== -1) {
          req.destroy();
          resolve(Buffer.byteLength(text.slice(text.indexOf('id:', text.indexOf('retry:')), end + 2), 'latin1'));
        }
      });
      response.on('end', () => resolve(bytes));
    });
    req.on('error', (error) => (firstEventOnly && bytes > 0 ? undefined : reject(error)));
    req.end();
  });
}

interface BrowserFigures {
  readyMs: number;
  /** A narrower window: every table laid out again. */
  resizeMs: number;
}

const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))';

/** From navigation until both tables show rows and the feed is live, then a resize. */
async function inBrowser(browser: Browser, url: string): Promise<BrowserFigures | string> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const began = Date.now();
    await page.goto(`${url}/`, { timeout: TIMEOUT_MS });
    // Polled through the DevTools protocol: the page's CSP refuses waitForFunction's eval.
    const ready = `Boolean(document.querySelector('#teams-rows tr[data-id]') && document.querySelector('#people-rows tr[data-id]') && /Live/.test(document.querySelector('#feed-state').textContent))`;
    while (!(await page.evaluate(ready))) {
      if (Date.now() - began > TIMEOUT_MS) throw new Error(`not ready after ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // One more frame, so a layout the rows caused is counted.
    await page.evaluate(NEXT_FRAME);
    const readyMs = Date.now() - began;
    const resizing = Date.now();
    await page.setViewportSize({ width: 900, height: 900 });
    await page.evaluate(NEXT_FRAME);
    return { readyMs, resizeMs: Date.now() - resizing };
  } catch (error) {
    return `did not finish: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await context.close();
  }
}

let sandbox: Sandbox | undefined;
let browser: Browser | undefined;
const stopAll = async () => {
  await browser?.close().catch(() => undefined);
  await sandbox?.close().catch(() => undefined);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: stopping Chromium and the sandbox`);
    void stopAll().then(() => process.exit(130));
  });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

try {
  const withBrowser = existsSync(CHROMIUM);
  if (withBrowser) browser = await launchChromium({ timeout: 30_000 });
  else console.log(`No Chromium at ${CHROMIUM}: the server's figures only.`);
  console.log('| World | Seed | Snapshot event | Teams page (25) | People page (25) | Page ready | Resize to 900 px |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, seed] of [
    ['demo seed', demoSeed as Seed],
    ['a team and a person named 100,000 characters', demoWithLongNames(100_000)],
    ['hostile: 60 teams, 60 people, the organization, each named 100 KB', hostileSeed()],
  ] as const) {
    sandbox = await createSandbox({ seed });
    const url = await sandbox.listen();
    const snapshot = await bytesOf(`${url}/_sandbox/console/events`, true);
    const teams = await bytesOf(`${url}/_sandbox/console/teams?offset=0&limit=25&q=`);
    const people = await bytesOf(`${url}/_sandbox/console/people?offset=0&limit=25&q=`);
    const shown = browser ? await inBrowser(browser, url) : 'no browser';
    const seedBytes = Buffer.byteLength(JSON.stringify(seed));
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const browserCells = typeof shown === 'string' ? [shown, ''] : [seconds(shown.readyMs), seconds(shown.resizeMs)];
    console.log(`| ${name} | ${kb(seedBytes)} | ${kb(snapshot)} | ${kb(teams)} | ${kb(people)} | ${browserCells.join(' | ')} |`);
    await sandbox.close();
    sandbox = undefined;
  }
} finally {
  await stopAll();
}
