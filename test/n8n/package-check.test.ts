import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildN8nApp } from '../../n8n-app/build-n8n-app.ts';
import { lintPackage, packPackage, scanPackage } from '../../n8n-app/check/package-tools.ts';
import { toolsDir, toolsReady } from '../../n8n-app/engine/cache.ts';

/**
 * n8n's own tools on the built package, as n8n's verification runs them
 * (https://docs.n8n.io/integrations/creating-nodes/deploy/submit-community-nodes/): `n8n-node
 * lint` with no finding at all, and `@n8n/scan-community-package` on the sources and on the
 * tarball `npm pack` makes. They need the tools in the cache (`npm run n8n:check` installs them,
 * and CI runs it too); without them this suite says so in its name and is skipped.
 */
const ready = toolsReady();
const suite = ready ? describe : describe.skip;

let folder: string;
beforeAll(async () => {
  if (!ready) return;
  folder = mkdtempSync(join(tmpdir(), 'n8n-check-'));
  await buildN8nApp(folder);
}, 60_000);
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

suite(`the built package through n8n's lint and scanner${ready ? '' : ` (skipped: no tools in ${toolsDir()}; run npm run n8n:check)`}`, () => {
  it('passes n8n-node lint with zero errors and zero warnings', async () => {
    await expect(lintPackage(folder)).resolves.toBeDefined();
  }, 180_000);

  it('passes the scanner on its sources and on the packed tarball', async () => {
    const packed = packPackage(folder);
    try {
      expect(readFileSync(join(packed.dir, 'package.json'), 'utf8')).toContain('"n8n-community-node-package"');
      expect(() => scanPackage(folder, 'sources')).not.toThrow();
      expect(() => scanPackage(packed.dir, 'tarball')).not.toThrow();
    } finally {
      packed.remove();
    }
  }, 180_000);

  it('fails on a tampered copy that declares a runtime dependency', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'n8n-tampered-'));
    try {
      cpSync(folder, copy, { recursive: true });
      const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, dependencies: { axios: '1.7.0' } }, null, 2));
      await expect(lintPackage(copy)).rejects.toThrow(/no-runtime-dependencies/);
      const packed = packPackage(copy);
      try {
        expect(() => scanPackage(packed.dir, 'tarball')).toThrow(/no-runtime-dependencies/);
      } finally {
        packed.remove();
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 180_000);
});
