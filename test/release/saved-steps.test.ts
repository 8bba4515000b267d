import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appPackage } from '../../zapier-app/packaging/app-package.ts';
import { BUNDLE_FILES, bundleApp } from '../../zapier-app/packaging/bundle.ts';
import { repoRoot } from '../../zapier-app/packaging/paths.ts';
import { loadBuiltZapierApp, type ZapierRuntime } from '../../scripts/main-job/zapier-runtime.ts';
import { readReleasedVersion, readReportFile, releasedDir } from '../../scripts/api/report-files.ts';
import type { ApiItem, SurfaceId } from '../../scripts/api/model.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';
import { runnerFor } from '../make/support.ts';

/**
 * A release breaks no live automation: a step saved with the released version still runs on the
 * apps as built now. The saved steps (fixtures/saved-steps.json: a Zap step's inputData, a Make
 * module's mapper, in the released keys) are first held to the released reports (api/released/),
 * then run against the sandbox: on the Zapier app as bundled for upload, through
 * zapier-platform-core's own handler, and on the Make app as generated, through the IML runner.
 * Each must succeed and give every output key the released report promised, which later steps map.
 */
isolateZapierCore();

interface Saved {
  savedWith: string;
  zapier: { step: string; inputData: Record<string, string> }[];
  make: { module: string; mapper: Record<string, string | number> }[];
}
const saved = JSON.parse(readFileSync(new URL('./fixtures/saved-steps.json', import.meta.url), 'utf8')) as Saved;

const released = (surface: SurfaceId): readonly ApiItem[] => {
  const report = readReportFile(releasedDir(), surface);
  if (!report) throw new Error(`api/released/${surface}.txt is missing: the proof needs the released interface.`);
  return report.items;
};
/** The released items right under `parent` (`create/create_incident/input`) of one kind, by their last segment. */
const under = (items: readonly ApiItem[], parent: string, kind: string) =>
  new Map(
    items
      .filter((item) => item.kind === kind && item.id.startsWith(`${parent}/`) && !item.id.slice(parent.length + 1).includes('/'))
      .map((item) => [item.id.slice(item.id.lastIndexOf('/') + 1), item]),
  );
/** Top-level output keys: a nested one (`team__name`, `current[]email`) is read through its parent. */
const topLevel = (keys: Iterable<string>) => [...keys].filter((key) => !key.includes('__') && !key.includes('[]'));

let sandbox: Sandbox;
let bundleDir: string;
let zapier: ZapierRuntime;
const savedBase = process.env.PAGERLY_BASE_URL;
beforeAll(async () => {
  sandbox = await createSandbox();
  process.env.PAGERLY_BASE_URL = await sandbox.listen();
  // Inside the checkout, so the bundle finds zapier-platform-core as it does in dist/zapier.
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  bundleDir = mkdtempSync(join(repoRoot, 'dist', 'zapier-saved-steps-'));
  writeFileSync(join(bundleDir, 'package.json'), JSON.stringify(appPackage(), null, 2));
  await bundleApp(bundleDir);
  zapier = loadBuiltZapierApp(join(bundleDir, BUNDLE_FILES.loader));
}, 60_000);
afterAll(async () => {
  if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = savedBase;
  rmSync(bundleDir, { recursive: true, force: true });
  await sandbox?.close();
});

it('the saved steps are those of the released version', () => {
  expect(saved.savedWith).toBe(readReleasedVersion());
});

describe('Zapier: a Zap step saved with the released version', () => {
  const items = released('zapier');
  // `creates.create_incident` → `create/create_incident`.
  const idOf = (step: string) => step.replace(/^(create|search|trigger)e?s\./, '$1/');
  let created = '';

  it('names released input keys only, and every input the released step required', () => {
    for (const { step, inputData } of saved.zapier) {
      const inputs = under(items, `${idOf(step)}/input`, 'input');
      expect([step, Object.keys(inputData).filter((key) => !inputs.has(key))]).toEqual([step, []]);
      const required = [...inputs].filter(([, item]) => item.facts['required'] === true).map(([key]) => key);
      expect([step, required.filter((key) => !(key in inputData))]).toEqual([step, []]);
    }
    // Every create and search of the release has a saved step here.
    const steps = items.filter((item) => item.kind === 'create' || item.kind === 'search').map((item) => item.id);
    expect(steps.sort()).toEqual(saved.zapier.map((s) => idOf(s.step)).sort());
  });

  it.each(saved.zapier.map((s) => [s.step, s] as const))(
    '%s runs through zapier-platform-core on the app as built, with every released output',
    async (step, { inputData }) => {
      const input = Object.fromEntries(Object.entries(inputData).map(([key, value]) => [key, value === '{{created}}' ? created : value]));
      const result = await zapier.run(`${step}.operation.perform`, { authData: { apiKey: demoKeys.acmeAdmin }, inputData: input });
      const record = (Array.isArray(result) ? result[0] : result) as Record<string, unknown>;
      expect(record).toBeDefined();
      const outputs = topLevel(under(items, `${idOf(step)}/output`, 'output').keys());
      expect(outputs.length).toBeGreaterThan(0);
      for (const key of outputs) expect([step, key, key in record]).toEqual([step, key, true]);
      if (step === 'creates.create_incident') created = String(record['id']);
    },
  );
});

describe('Make: a scenario module saved with the released version', () => {
  const items = released('make');
  let created = '';

  it('names released parameters only, and every parameter the released module required', () => {
    for (const { module, mapper } of saved.make) {
      const parameters = under(items, `module/${module}/param`, 'parameter');
      expect([module, Object.keys(mapper).filter((key) => !parameters.has(key))]).toEqual([module, []]);
      const required = [...parameters].filter(([, item]) => item.facts['required'] === true).map(([key]) => key);
      expect([module, required.filter((key) => !(key in mapper))]).toEqual([module, []]);
    }
    // Every action and search module of the release has a saved module here (the trigger and the universal module have no mapper to keep).
    const modules = items.filter((item) => item.kind === 'module' && (item.facts['kind'] === 'action' || item.facts['kind'] === 'search'));
    expect(modules.map((item) => item.id.slice('module/'.length)).sort()).toEqual(saved.make.map((m) => m.module).sort());
  });

  it.each(saved.make.map((m) => [m.module, m] as const))(
    '%s runs in the IML runner on the app as generated, with every released output',
    async (module, { mapper }) => {
      const run = runnerFor(process.env.PAGERLY_BASE_URL);
      const parameters = Object.fromEntries(Object.entries(mapper).map(([key, value]) => [key, value === '{{created}}' ? created : value]));
      const bundles = (await run.module(module, { connection: { apiKey: demoKeys.acmeAdmin }, parameters })) as Record<string, unknown>[];
      expect(bundles.length).toBeGreaterThan(0);
      const outputs = topLevel(under(items, `module/${module}/output`, 'output').keys());
      expect(outputs.length).toBeGreaterThan(0);
      for (const key of outputs) expect([module, key, key in bundles[0]!]).toEqual([module, key, true]);
      if (module === 'createIncident') created = String(bundles[0]!['id']);
    },
  );
});
