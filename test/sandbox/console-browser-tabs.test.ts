// The sandbox console under real use, in Chromium: the console tabs of one browser share one
// event stream (a SharedWorker holds it), so the sixth and the tenth tab are as live as the
// first (HTTP/1.1 lets a browser hold six connections to a host, and a stream per tab took them
// all); with every stream taken by another program, the page says why, still shows the state of
// things, and goes live by itself once a stream frees, without a reload (with a shared worker,
// and in a browser without one); and a sandbox that stops is not held by the open tabs.
import { expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { MAX_STREAMS } from '../../sandbox/console/plugin.ts';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { demoKeys } from '../../sandbox/index.ts';
import { describeInChromium, holdStreams, sandboxAndChromium, until } from './console-browser-support.ts';

const TABS = 10;

describeInChromium('the sandbox console in many tabs', () => {
  const started = sandboxAndChromium();
  const admin = () => createFetchClient({ apiKey: demoKeys.acmeAdmin, baseUrl: started.running.url, retries: 0 });
  const incidentRow = (page: Page, title: string) => page.locator('#incidents-rows tr', { hasText: title });
  const openTab = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${started.running.url}/`);
    return page;
  };

  it(`shares one stream among ${TABS} tabs of one browser: each is live, with what came before it and what comes after`, async () => {
    // Every stream but one is taken: ten tabs live at once prove that they hold one between them.
    const others = await holdStreams(started.running.url, MAX_STREAMS - 1);
    const context = await started.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      expect(others.statuses.every((status) => status === 200)).toBe(true);
      await admin().createOrUpdateIncident({ title: 'Before any tab' });
      const tabs: Page[] = [];
      for (let n = 1; n <= TABS; n += 1) {
        const tab = await openTab(context);
        tabs.push(tab);
        await tab.locator('#feed-state', { hasText: 'Live' }).waitFor();
        await expect(tab.evaluate('document.documentElement.dataset.feed')).resolves.toBe('shared');
        await incidentRow(tab, 'Before any tab').waitFor();
        // Made while this tab was the newest: the next tab gets it from the worker's replay.
        await admin().createOrUpdateIncident({ title: `While ${n} tabs were open` });
        await incidentRow(tab, `While ${n} tabs were open`).waitFor();
        await until(tab, `document.querySelectorAll('#teams-rows tr[data-id]').length > 0`);
      }
      const last = tabs.at(-1)!;
      for (let n = 1; n <= TABS; n += 1) await incidentRow(last, `While ${n} tabs were open`).waitFor();
      // The first tab goes; the others stay live.
      await tabs.shift()!.close();
      await admin().createOrUpdateIncident({ title: 'After the first tab closed' });
      for (const tab of [tabs[4]!, last]) await incidentRow(tab, 'After the first tab closed').waitFor();
    } finally {
      await context.close();
      others.release();
    }
  }, 90_000);

  it('says why when every stream is taken, shows the state of things meanwhile, and goes live by itself once one frees', async () => {
    const others = await holdStreams(started.running.url, MAX_STREAMS);
    const context = await started.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      expect(others.statuses).toEqual(Array(MAX_STREAMS).fill(200));
      await admin().createOrUpdateIncident({ title: 'Made while the streams were taken' });
      const tab = await openTab(context);
      await tab.evaluate('window.__sameDocument = true');
      const state = tab.locator('#feed-state');
      await state.filter({ hasText: `serves ${MAX_STREAMS} console event streams at once` }).waitFor();
      await expect(state.textContent()).resolves.toMatch(/^Not live: .*other browsers, or programs reading \/_sandbox\/console\/events.*tries again by itself/);
      // Not empty tables: the page read the state of things on its own.
      await incidentRow(tab, 'Made while the streams were taken').waitFor();
      await until(tab, `document.querySelectorAll('#teams-rows tr[data-id]').length > 0`);

      others.release();
      await state.filter({ hasText: /^Live$/ }).waitFor({ timeout: 30_000 });
      await admin().createOrUpdateIncident({ title: 'Made once live again' });
      await incidentRow(tab, 'Made once live again').waitFor();
      await expect(tab.evaluate('window.__sameDocument')).resolves.toBe(true);
    } finally {
      await context.close();
      others.release();
    }
  }, 60_000);

  it('reads the feed itself in a browser without SharedWorker, and says why when refused there too', async () => {
    const others = await holdStreams(started.running.url, MAX_STREAMS);
    const context = await started.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      expect(others.statuses).toEqual(Array(MAX_STREAMS).fill(200));
      // As Chrome on Android or Safari before 16: no SharedWorker at all.
      await context.addInitScript('delete globalThis.SharedWorker');
      const tab = await openTab(context);
      await tab.locator('#feed-state', { hasText: 'Not live' }).waitFor();
      await expect(tab.evaluate('document.documentElement.dataset.feed')).resolves.toBe('own');
      others.release();
      await tab.locator('#feed-state', { hasText: /^Live$/ }).waitFor({ timeout: 30_000 });
      await admin().createOrUpdateIncident({ title: 'Seen without a worker' });
      await incidentRow(tab, 'Seen without a worker').waitFor();
    } finally {
      await context.close();
      others.release();
    }
  }, 60_000);

  it('does not hold a stopping sandbox: its stream ends, and the open tabs say they are reconnecting', async () => {
    const context = await started.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const tabs = [await openTab(context), await openTab(context)];
      for (const tab of tabs) await tab.locator('#feed-state', { hasText: 'Live' }).waitFor();
      await started.running.sandbox.close();
      for (const tab of tabs) await tab.locator('#feed-state', { hasText: 'Reconnecting' }).waitFor();
    } finally {
      await context.close();
    }
  }, 30_000);
});
