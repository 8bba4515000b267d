// `npm run docs:screenshots`: pictures of n8n's editor for docs/n8n.md, taken on the real engine
// (the 2.35 line) in Debian's Chromium through playwright-core. n8n is started with the built
// package installed as a community package, a credential "Pagerly account" on the sandbox, the
// deploy webhook's Header Auth credential, and
// every template imported by n8n's own CLI (`n8n import:credentials`, `n8n import:workflow`,
// the files as they are); then the owner is set up over REST, the editor signed in to in the
// browser, each template's canvas captured, and the Pagerly node's panel opened. Everything
// started (sandbox, n8n, Chromium, temporary folders) is stopped on every path, Ctrl-C included.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../packaging/headless-chromium.ts';
import { createSandbox, demoKeys, type Sandbox } from '../sandbox/index.ts';
import { connection } from '../shared/operations/connection.ts';
import { buildN8nApp } from '../n8n-app/build-n8n-app.ts';
import { DEFAULT_LINE, ensureEngine, repoRoot } from '../n8n-app/engine/cache.ts';
import { installAsCommunityPackage } from '../n8n-app/e2e/community-package.ts';
import { freePort, N8nInstance } from '../n8n-app/e2e/n8n-process.ts';
import { N8nRest } from '../n8n-app/e2e/rest.ts';
import { BASE_URL_FIELD, CREDENTIAL, ROTATIONS_BASE_URL_FIELD } from '../n8n-app/names.ts';
import { DEPLOY_WEBHOOK_CREDENTIAL, isPagerlyNode, n8nTemplates, TEMPLATE_CREDENTIAL_NAME, TEMPLATE_JOBS } from '../n8n-app/templates/templates.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: join(repoRoot, 'docs', 'images', 'n8n') } } });
/** A modest viewport keeps each PNG small (most of the canvas is flat colour). */
const VIEWPORT = { width: 1280, height: 720 };
const OWNER = { email: 'owner@pagerly-e2e.example', password: 'Pagerly-e2e-1' };
/** The template and node whose panel is shown: the incident a failed deploy opens. */
const PANEL = { job: TEMPLATE_JOBS.failedDeploy, node: 'Open an incident', file: 'pagerly-node-panel.png' };

let sandbox: Sandbox | undefined;
let n8n: N8nInstance | undefined;
let browser: Browser | undefined;
let work: string | undefined;
let stopping: Promise<void> | undefined;
/** Stops what was started, once, whichever path gets here first. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await browser?.close().catch(() => undefined);
    await n8n?.stop().catch(() => undefined);
    n8n?.remove();
    await sandbox?.close().catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: stopping n8n, Chromium and the sandbox`);
    void stopAll().then(() => process.exit(130));
  });

/** Runs one n8n CLI command on the instance's folder (the server not running); throws with its output on failure. */
async function cli(instance: N8nInstance, args: string[]): Promise<string> {
  const run = await instance.cli(args);
  if (run.status !== 0) throw new Error(`n8n ${args.join(' ')} exited ${run.status}:\n${(run.stderr || run.stdout).slice(-2000)}`);
  return run.stdout;
}

/** The canvas drawn and still: n8n fits the workflow to the view when it opens one. */
async function canvasReady(page: Page): Promise<void> {
  await page.locator('[data-test-id="canvas-node"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800);
}

async function main(): Promise<void> {
  const started = performance.now();
  ensureEngine(DEFAULT_LINE);
  const built = await buildN8nApp();
  sandbox = await createSandbox({ clock: { mode: 'fixed' } });
  const sandboxUrl = await sandbox.listen();
  // No custom extensions folder: the package is loaded only as users install it.
  n8n = new N8nInstance(await freePort(), '', { line: DEFAULT_LINE });
  installAsCommunityPackage(n8n.folder, built.folder);

  work = mkdtempSync(join(tmpdir(), 'pagerly-screenshots-'));
  const credentialFile = join(work, 'credentials.json');
  writeFileSync(
    credentialFile,
    JSON.stringify([
      {
        // n8n's import needs an id of its own making's shape; the templates name the credential only.
        id: 'PagerlyDocsCred1',
        name: TEMPLATE_CREDENTIAL_NAME,
        type: CREDENTIAL.name,
        data: { [connection.apiKeyField.key]: demoKeys.acmeAdmin, [BASE_URL_FIELD]: sandboxUrl, [ROTATIONS_BASE_URL_FIELD]: '' },
      },
      {
        // As the deploy template's note asks: the webhook's header, with a value no one will call it with.
        id: 'PagerlyDocsHook1',
        name: DEPLOY_WEBHOOK_CREDENTIAL.name,
        type: DEPLOY_WEBHOOK_CREDENTIAL.type,
        data: { name: DEPLOY_WEBHOOK_CREDENTIAL.header, value: 'docs-screenshot-not-a-secret' },
      },
    ]),
  );
  const workflowsDir = join(work, 'workflows');
  mkdirSync(workflowsDir);
  const templates = n8nTemplates();
  for (const template of templates) copyFileSync(join(repoRoot, template.file), join(workflowsDir, `${template.job}.json`));
  await cli(n8n, ['import:credentials', `--input=${credentialFile}`]);
  await cli(n8n, ['import:workflow', '--separate', `--input=${workflowsDir}`]);
  console.log(
    `n8n ${DEFAULT_LINE.n8n}: imported ${templates.length} templates and the credentials "${TEMPLATE_CREDENTIAL_NAME}" and "${DEPLOY_WEBHOOK_CREDENTIAL.name}" with n8n's CLI`,
  );

  await n8n.start();
  const rest = new N8nRest(n8n.url);
  await rest.request('POST', '/owner/setup', { ...OWNER, firstName: 'Docs', lastName: 'Owner' });
  const saved = await rest.request<{ id: string; name: string; nodes?: { type: string; credentials?: Record<string, { id: string | null }> }[] }[]>(
    'GET',
    '/workflows',
  );
  const idOf = (name: string) => {
    const workflow = saved.find((candidate) => candidate.name === name);
    if (!workflow) throw new Error(`n8n did not import "${name}" (it has ${saved.map((w) => w.name).join(', ')})`);
    return workflow.id;
  };
  for (const template of templates) {
    const full = await rest.request<{ nodes: { name: string; type: string; credentials?: Record<string, { id: string | null }> }[] }>(
      'GET',
      `/workflows/${idOf(template.workflow.name)}`,
    );
    const unresolved = full.nodes
      .filter((node) => (isPagerlyNode(node) && !node.credentials?.[CREDENTIAL.name]?.id) || node.credentials?.[DEPLOY_WEBHOOK_CREDENTIAL.type]?.id === null)
      .map((node) => node.name);
    if (unresolved.length) throw new Error(`${template.file}: import gave no credential to ${unresolved.join(', ')}`);
  }

  browser = await launchChromium();
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await page.goto(`${n8n.url}/signin`);
  await page.locator('input[type="email"]').fill(OWNER.email);
  await page.locator('input[type="password"]').fill(OWNER.password);
  await page.locator('input[type="password"]').press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });

  mkdirSync(values.out!, { recursive: true });
  const written: string[] = [];
  const shoot = async (file: string) => {
    const path = join(values.out!, file);
    await page.screenshot({ path, type: 'png' });
    written.push(`${file} (${(statSync(path).size / 1024).toFixed(0)} KB)`);
  };
  for (const template of templates) {
    await page.goto(`${n8n.url}/workflow/${idOf(template.workflow.name)}`);
    await canvasReady(page);
    await shoot(`${template.job}.png`);
    if (template.job === PANEL.job) {
      await page.locator(`[data-test-id="canvas-node"][data-node-name="${PANEL.node}"]`).dblclick();
      await page.locator('[data-test-id="ndv"]').waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(800);
      await shoot(PANEL.file);
      await page.keyboard.press('Escape');
    }
  }
  console.log(`Wrote ${written.join(', ')} to ${values.out} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

try {
  await main();
} catch (error) {
  console.error(`Screenshots failed: ${(error as Error).message}`);
  if (n8n) console.error(`n8n's log (last lines):\n${n8n.serverLog().split('\n').slice(-20).join('\n')}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
