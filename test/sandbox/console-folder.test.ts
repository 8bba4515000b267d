import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { packagedConsole, packagedConsoleFolder } from '../../sandbox/package/console-folder.ts';

/** The console's assets in the package are found from bundled code, as the package's build bundles it. */
const folder = realpathSync(mkdtempSync(join(tmpdir(), 'pagerly-console-folder-')));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function bundled(): Promise<() => string | undefined> {
  await build({
    entryPoints: { 'lib/console-folder': join(process.cwd(), 'sandbox/package/console-folder.ts') },
    outdir: folder,
    bundle: true,
    format: 'esm',
    platform: 'node',
    define: { PAGERLY_SANDBOX_PACKAGE: 'true' },
    logLevel: 'silent',
  });
  const module = (await import(`${pathToFileURL(join(folder, 'lib/console-folder.js')).href}?${Date.now()}`)) as {
    packagedConsoleFolder: () => string | undefined;
  };
  return module.packagedConsoleFolder;
}

describe('packagedConsoleFolder', () => {
  it('is nothing in the checkout, where ../console/ holds sources', () => {
    expect(packagedConsoleFolder()).toBeUndefined();
    expect(packagedConsole()).toEqual({});
  });

  it("is the package's console/ from bundled code, once the package has one", async () => {
    const find = await bundled();
    expect(find()).toBeUndefined();
    mkdirSync(join(folder, 'console'));
    writeFileSync(join(folder, 'console', 'index.html'), '<!doctype html>');
    expect(find()).toBe(`${join(folder, 'console')}/`);
  });
});
