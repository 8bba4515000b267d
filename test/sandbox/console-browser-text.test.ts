// The sandbox console under real text, in Chromium: a realistic 247-character incident title
// and a long query string break no short cell (id, status, time) into pieces at any window
// width; names far longer than the API allows (100,000 characters, and a hostile seed of 60
// teams and 60 people named 100 KB each) are shown shortened, whole in their title, and neither
// the feed nor the page carries them whole; bidi and zero-width controls are shown as escapes,
// never applied. Speed is measured by `node bench/console-long-text.ts`, not here: this test
// holds what makes it fast (no text on the page or in its answers is long).
import { beforeAll, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { createFetchClient } from '../../shared/fetch-client.ts';
import { hostileSeed, thaiName } from '../../bench/long-name-seeds.ts';
import { demoKeys, demoSeed, type Seed } from '../../sandbox/index.ts';
import { describeInChromium, sandboxAndChromium, until } from './console-browser-support.ts';
import { startSandbox } from './support.ts';

/** 247 characters, as a pipeline writes a title: words, an id, a percentage, a version. */
const TITLE =
  'Checkout API returning HTTP 503s for 38% of card payments in eu-west-1 since deploy 2026.11.02-4512 of payments-gateway; retries exhausted, refunds queue growing, on-call paged twice, customers report double charges on retry — rollback in progress';
/** A query string as a script builds one: one word of 480 characters, no space to wrap at. */
const LONG_QUERY = `teamname=Platform&trace=${'deploy-4512-failed-'.repeat(24)}`;
const HUNDRED_K = thaiName('Mobile', 100_000);
const BIDI_TITLE = 'Deploy \u202Egnp.exe\u202C';

function longSeed(): Seed {
  const seed = structuredClone(demoSeed) as Seed;
  const acme = seed.organizations[0]!;
  acme.teams.find((team) => team.id === 'team_mobile')!.name = HUNDRED_K;
  acme.people.find((person) => person.id === 'usr_hedy')!.name = `Hedy \u202e${'x'.repeat(100 * 1024)}`;
  acme.people.find((person) => person.id === 'usr_katherine')!.name = 'Katherine\u200bJohnson';
  return seed;
}

/**
 * In the page: how many lines each short cell of the rows matching `rows` takes, and every word
 * of their long cells that was broken across lines (a word is on one line when its range has
 * one line box). A word ends at a space or after a hyphen, where Unicode's line breaking
 * (UAX #14) lets a line end. Given as text: the test's types are Node's, not the DOM's.
 */
const layoutOf = (rows: string) => `(() => {
  const linesOf = (range) => new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top))).size;
  const whole = (node) => { const range = document.createRange(); range.selectNodeContents(node); return linesOf(range); };
  const shortLines = [];
  const brokenWords = [];
  for (const cell of document.querySelectorAll(${JSON.stringify(`${rows} td.short`)})) shortLines.push([cell.textContent, whole(cell)]);
  for (const cell of document.querySelectorAll(${JSON.stringify(`${rows} td.long`)})) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const word of text.data.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (linesOf(range) > 1) brokenWords.push(word[0]);
      }
    }
  }
  return { shortLines, brokenWords };
})()`;

describeInChromium('the sandbox console under real text', () => {
  const started = sandboxAndChromium({ seed: longSeed() });
  let page: Page;

  beforeAll(async () => {
    page = await started.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${started.running.url}/`);
    await page.locator('#feed-state', { hasText: 'Live' }).waitFor();
  }, 60_000);

  const admin = () => createFetchClient({ apiKey: demoKeys.acmeAdmin, baseUrl: started.running.url, retries: 0 });

  it('breaks no id, status or time into pieces beside a 247-character title or a long query string, at any width', async () => {
    expect(TITLE).toHaveLength(247);
    await admin().createOrUpdateIncident({ title: TITLE, severity: 'P1', teamname: 'Payments' });
    await fetch(`${started.running.url}/pagerly/o/currentusers?${LONG_QUERY}`, { headers: { 'x-apikey': demoKeys.acmeAdmin } });
    await page.locator('#incidents-rows tr[data-id="inc_0001"]').waitFor();
    await page.locator('#journal-rows td', { hasText: 'deploy-4512-failed-deploy' }).waitFor();
    for (const width of [1280, 1024, 800]) {
      await page.setViewportSize({ width, height: 900 });
      for (const rows of ['#incidents-rows tr[data-id="inc_0001"]', '#journal-rows tr']) {
        const { shortLines, brokenWords } = (await page.evaluate(layoutOf(rows))) as { shortLines: [string, number][]; brokenWords: string[] };
        expect(shortLines.length).toBeGreaterThan(3);
        expect({ width, rows, broken: shortLines.filter(([, lines]) => lines !== 1) }).toEqual({ width, rows, broken: [] });
        // The title wraps between its words, never inside one; only a word wider than its column (the query) may break.
        if (rows.startsWith('#incidents')) expect({ width, brokenWords }).toEqual({ width, brokenWords: [] });
      }
      const statusCell = page.locator('#incidents-rows tr[data-id="inc_0001"] td.short', { hasText: 'triggered' });
      await expect(statusCell.textContent()).resolves.toBe('triggered');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows names longer than the API allows shortened, whole in their title, and carries no name whole', async () => {
    const team = page.locator('#teams-rows tr[data-id="team_mobile"] td').first();
    await team.waitFor();
    const shown = (await team.textContent()) ?? '';
    expect(shown).toBe(`${HUNDRED_K.slice(0, 200)}…`);
    const title = (await team.getAttribute('title')) ?? '';
    expect(title.startsWith(HUNDRED_K.slice(0, 1_024))).toBe(true);
    expect(title).toContain('longer than the 200 characters the API takes');
    // The page holds no long text: no cell, no title, nothing the browser must lay out at length.
    const longest = (await page.evaluate(`(() => {
      const texts = [...document.querySelectorAll('main td, main [title]')].flatMap((node) => [node.textContent.length, (node.getAttribute('title') ?? '').length]);
      return Math.max(...texts);
    })()`)) as number;
    expect(longest).toBeLessThan(1_200);
    // Nor do the sandbox's answers: a page of teams or people is a few kilobytes, not 100 KB a name.
    const teamsPage = await started.running.call('/_sandbox/console/teams?limit=25');
    const peoplePage = await started.running.call('/_sandbox/console/people?limit=25');
    expect(teamsPage.text.length).toBeLessThan(6_000);
    expect(peoplePage.text.length).toBeLessThan(6_000);
    expect(teamsPage.json.items.find((item: { id: string }) => item.id === 'team_mobile').name).toBe(`${HUNDRED_K.slice(0, 1_024)}…`);
  });

  it('shows bidi and zero-width controls as escapes: "Deploy \\u202Egnp.exe\\u202C" never reads "Deploy exe.png"', async () => {
    await admin().createOrUpdateIncident({ title: BIDI_TITLE, severity: 'P2' });
    const title = page.locator('#incidents-rows tr', { hasText: 'gnp.exe' }).locator('td').nth(1);
    await title.waitFor();
    await expect(title.textContent()).resolves.toBe('Deploy \\u202egnp.exe\\u202c');
    await expect(title.locator('.control').allTextContents()).resolves.toEqual(['\\u202e', '\\u202c']);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as the browser renders it is what a person reads
    await expect(title.innerText()).resolves.not.toContain('exe.png');
    // As laid out, "gnp.exe" still follows "Deploy" from left to right: nothing reordered it.
    const order = (await page.evaluate(`(() => {
      const cell = [...document.querySelectorAll('#incidents-rows td')].find((td) => td.textContent.includes('gnp.exe'));
      const at = (word) => { const text = [...cell.childNodes].find((node) => node.nodeType === 3 && node.data.includes(word)); const range = document.createRange(); range.setStart(text, text.data.indexOf(word)); range.setEnd(text, text.data.indexOf(word) + word.length); return range.getBoundingClientRect().left; };
      return at('gnp.exe') > at('Deploy');
    })()`)) as boolean;
    expect(order).toBe(true);
    const katherine = page.locator('#people-rows tr', { hasText: 'katherine@acme.example' }).locator('td').first();
    await expect(katherine.textContent()).resolves.toBe('Katherine\\u200bJohnson');
    // The title of a shortened name shows its controls too (a tooltip applies them as well).
    const hedy = page.locator('#people-rows tr', { hasText: 'hedy@acme.example' }).locator('td').first();
    await expect(hedy.getAttribute('title')).resolves.toMatch(/^Hedy \\u202ex+…\n/);
    const raw = (await page.evaluate(
      `/[\\u202a-\\u202e\\u2066-\\u2069\\u200b]/.test(document.body.innerText + [...document.querySelectorAll('[title]')].map((node) => node.title).join(''))`,
    )) as boolean;
    expect(raw).toBe(false);
  });

  it('has no serious or critical accessibility violation with shortened names and shown controls (axe-core)', async () => {
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = (await page.evaluate(
      'axe.run(document).then((result) => result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length })))',
    )) as { id: string; impact: string; nodes: number }[];
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  });

  it('opens on a hostile seed (60 teams, 60 people and their organization named 100 KB each) with every table bounded', async () => {
    const hostile = await startSandbox({ seed: hostileSeed() });
    const context = await started.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const teamsPage = await hostile.call('/_sandbox/console/teams?limit=25');
      // 25 teams, each with its organization and two people on call: about 12 KB a row, not 300 KB.
      expect(teamsPage.text.length).toBeLessThan(400_000);
      const tab = await context.newPage();
      await tab.goto(`${hostile.url}/`);
      await tab.locator('#feed-state', { hasText: 'Live' }).waitFor();
      await until(
        tab,
        `document.querySelectorAll('#teams-rows tr[data-id]').length === 25 && document.querySelectorAll('#people-rows tr[data-id]').length === 25`,
      );
      const tableText = (await tab.evaluate(
        `document.querySelector('#teams-rows').textContent.length + document.querySelector('#people-rows').textContent.length`,
      )) as number;
      expect(tableText).toBeLessThan(60_000);
    } finally {
      await context.close();
      await hostile.sandbox.close();
    }
  }, 60_000);
});
