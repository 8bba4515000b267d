import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import { connection } from '../../shared/operations/connection.ts';
import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import { appPackage } from '../../zapier-app/packaging/app-package.ts';
import { BUNDLE_FILES, bundleApp, ZAPIER_BUNDLE_OPTIONS } from '../../zapier-app/packaging/bundle.ts';
import { entryPoint, repoRoot } from '../../zapier-app/packaging/paths.ts';
import {
  type BuiltZapierApp,
  readBuiltApp,
  reviewZapierApp,
  titleCaseProblems,
  type ZapierDefinition,
  zapierReviewRules,
} from '../../zapier-app/packaging/review.ts';

/**
 * The project's own review of the Zapier app (zapier-app/packaging/review.ts), on the app as it
 * is uploaded: bundled here as `npm run build` bundles it, beside its package.json. Each rule
 * quotes its page: Zapier's "Integration checks reference"
 * (https://docs.zapier.com/platform/publish/integration-checks-reference: D002, D018, D021),
 * "Integration publishing requirements"
 * (https://docs.zapier.com/platform/publish/integration-publishing-requirements, 4.1 Triggers),
 * "Add a connection label" (https://docs.zapier.com/platform/build/connection-label, D003), and
 * for the bundle Node's process.setSourceMapsEnabled
 * (https://nodejs.org/api/process.html#processsetsourcemapsenabledval). Each rule is shown to fail
 * on a copy of the built app tampered the way the review issue found it.
 */

const run = promisify(execFile);

let dir: string;
let built: BuiltZapierApp;

// Inside the checkout, so the bundle finds zapier-platform-core as it does in dist/zapier.
beforeAll(async () => {
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  dir = mkdtempSync(join(repoRoot, 'dist', 'zapier-review-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(appPackage(), null, 2));
  await bundleApp(dir);
  built = readBuiltApp(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built definition with one part replaced (the rest shared, never changed). */
function tampered(change: (definition: ZapierDefinition) => ZapierDefinition): BuiltZapierApp {
  return { ...built, definition: change(built.definition) };
}
function withFiles(files: Record<string, string | undefined>): BuiltZapierApp {
  const copy = new Map(built.files);
  for (const [name, content] of Object.entries(files)) {
    if (content === undefined) copy.delete(name);
    else copy.set(name, content);
  }
  return { ...built, files: copy };
}
const rulesFound = async (app: BuiltZapierApp) => [...new Set((await reviewZapierApp(app)).map((f) => f.rule))];

describe('the review of the built Zapier app', () => {
  it('finds nothing on the app as built', async () => {
    expect(await reviewZapierApp(built)).toEqual([]);
  });

  it('each rule names its page and what the page says', () => {
    for (const rule of zapierReviewRules) {
      expect(rule.page).toMatch(/^https:\/\/(docs\.zapier\.com|nodejs\.org|github\.com\/zapier)\//);
      expect(rule.quote).toMatch(/^(In substance: |"|process\.)/);
    }
    expect(zapierReviewRules.map((r) => r.id)).toEqual(['D002', 'D003', 'D018', 'D021 / 4.1', 'own package.json', 'source map']);
  });

  it('D002 fails when the API key help does not link to where the key is found', async () => {
    const [field] = built.definition.authentication!.fields!;
    expect(field!.helpText).toContain(`[${connection.dashboard.name}](${connection.dashboard.url})`);
    const app = tampered((d) => ({ ...d, authentication: { ...d.authentication, fields: [{ ...field, helpText: connection.apiKeyField.help }] } }));
    expect(await rulesFound(app)).toEqual(['D002']);
  });

  it('D003 fails on a label that falls back to a fixed "Pagerly API key", and on a fixed text', async () => {
    const fixedFallback = async (_z: unknown, bundle: { inputData: { user?: { name?: string } } }) => bundle.inputData.user?.name ?? 'Pagerly API key';
    for (const connectionLabel of [fixedFallback, 'Pagerly API key', 'API key']) {
      const app = tampered((d) => ({ ...d, authentication: { ...d.authentication, connectionLabel } }));
      expect(await rulesFound(app)).toEqual(['D003']);
    }
    // A label that quotes the key, even only where the answer quoted it.
    const quoting = async (_z: unknown, bundle: { inputData: { user?: { name?: string } } }) => bundle.inputData.user?.name ?? '';
    expect(await rulesFound(tampered((d) => ({ ...d, authentication: { ...d.authentication, connectionLabel: quoting } })))).toEqual(['D003']);
  });

  it('D018 fails on "Find Who Is On Call" (a minor word capitalized) and on a word not capitalized', async () => {
    expect(titleCaseProblems('Find Who Is on Call')).toEqual([]);
    expect(titleCaseProblems('On-Call Changed')).toEqual([]);
    expect(titleCaseProblems('Find or Create Directory Entry')).toEqual([]);
    expect(titleCaseProblems('Find Who Is On Call')).toEqual(['"On" should be lower case']);
    expect(titleCaseProblems('Find who is on call')).toEqual(['"who" should be capitalized', '"is" should be capitalized', '"call" should be capitalized']);
    const search = built.definition.searches!.find_on_call_users!;
    expect(search.display!.label).toBe('Find Who Is on Call');
    const app = tampered((d) => ({
      ...d,
      searches: { ...d.searches, find_on_call_users: { ...search, display: { ...search.display, label: 'Find Who Is On Call' } } },
    }));
    expect(await rulesFound(app)).toEqual(['D018']);
  });

  it('D021 / 4.1 fails on the shared two-sentence description of the on-call trigger', async () => {
    const trigger = built.definition.triggers!.on_call_changed!;
    expect(trigger.display!.description).toBe('Triggers when the people on call for a team change.');
    const app = tampered((d) => ({
      ...d,
      triggers: { ...d.triggers, on_call_changed: { ...trigger, display: { ...trigger.display, description: onCallChanged.description } } },
    }));
    const findings = await reviewZapierApp(app);
    expect(findings.map((f) => f.rule)).toEqual(['D021 / 4.1', 'D021 / 4.1']);
    expect(findings.map((f) => f.problem)).toEqual([
      'triggers.on_call_changed: the description is 2 sentences, not one ending in "."',
      'triggers.on_call_changed: the description is 32 words, more than 15',
    ]);
  });

  it("own package.json fails when the repository's manifest is bundled in, and on a manifest with more than the app needs", async () => {
    // The bundle as it was: the app's `../package.json` import inlined as the repository's manifest.
    const plain = join(dir, 'plain.js');
    await build({ entryPoints: [entryPoint], outfile: plain, ...ZAPIER_BUNDLE_OPTIONS, external: [...ZAPIER_BUNDLE_OPTIONS.external] });
    const inlined = withFiles({ [BUNDLE_FILES.app]: readFileSync(plain, 'utf8') });
    // That bundle had no source map either.
    expect(await rulesFound(inlined)).toEqual(['own package.json', 'source map']);
    const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(await rulesFound(withFiles({ 'package.json': JSON.stringify(root) }))).toEqual(['own package.json']);
    expect(JSON.parse(built.files.get('package.json')!)).toEqual({
      name: 'pagerly-zapier',
      version: root.version,
      description: expect.any(String),
      private: true,
      license: 'MIT',
      main: 'index.js',
      engines: { node: '>=22' },
      dependencies: { 'zapier-platform-core': (root.dependencies as Record<string, string>)['zapier-platform-core'] },
    });
  });

  it('source map fails without the map, without its link, and when the loader turns maps on too late', async () => {
    expect(await rulesFound(withFiles({ [BUNDLE_FILES.map]: undefined }))).toEqual(['source map']);
    const unlinked = built.files.get(BUNDLE_FILES.app)!.replace(/\/\/# sourceMappingURL=.*\s*$/, '');
    expect(await rulesFound(withFiles({ [BUNDLE_FILES.app]: unlinked }))).toEqual(['source map']);
    const late = `module.exports = require("./${BUNDLE_FILES.app}");\nprocess.setSourceMapsEnabled(true);\n`;
    expect(await rulesFound(withFiles({ [BUNDLE_FILES.loader]: late }))).toEqual(['source map']);
  });

  it('reads a tampered copy on disk as it reads the build: a copy whose map is gone fails', async () => {
    const copy = mkdtempSync(join(repoRoot, 'dist', 'zapier-review-tampered-'));
    try {
      cpSync(dir, copy, { recursive: true });
      rmSync(join(copy, BUNDLE_FILES.map));
      expect(await rulesFound(readBuiltApp(copy))).toEqual(['source map']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the source map at work', () => {
  it('an error thrown inside the built app names the .ts file and line, as Zapier logs it', async () => {
    // A fresh process loads the app through its loader, as Zapier's wrapper does; a create run with
    // no z object fails inside the app's own code.
    const child = `
      const app = require('./index.js');
      Promise.resolve()
        .then(() => app.creates.create_incident.operation.perform({}, { authData: {}, inputData: { title: 'x' } }))
        .then(() => console.log('no error'), (error) => console.log(error.stack));`;
    const { stdout } = await run(process.execPath, ['-e', child], { cwd: dir, encoding: 'utf8' });
    const frames = stdout.split('\n').filter((line) => line.trim().startsWith('at '));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((frame) => /(zapier-app|shared)\/[\w/-]+\.ts:\d+:\d+/.test(frame))).toBe(true);
    expect(frames.some((frame) => /app\.js:\d+/.test(frame))).toBe(false);
  });
});
