import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildClientPackage } from '../../client/build-client-package.ts';
import { clientSurface } from '../../client/surface.ts';
import { CLIENT_INSTALLED_MAX_KIB, clientInstall } from '../../packaging/client-install-size.ts';
import { pack } from '../../packaging/install.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';

/**
 * The client package as built (npm run smoke installs it from its tarball and imports it on
 * Node 22 and 24, Bun and Deno, and runs publint and arethetypeswrong): what it is made of.
 */
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pagerly-client-package-'));
  await buildClientPackage(folder);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(folder, path), 'utf8');

describe('the client package', () => {
  it('is one ES module with its declarations, through an exports map', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg).toMatchObject({
      name: '@pagerly/client',
      type: 'module',
      exports: { '.': { types: './types/client/index.d.ts', default: './index.js' } },
    });
    // zod is inside (its code in index.js, its declarations under types/vendor/zod): only undici, for proxies, is installed with it.
    expect(Object.keys(pkg.dependencies)).toEqual(['undici']);
    expect(read('types/client/index.d.ts')).toContain('export declare function createClient(settings: ClientSettings): PagerlyClient;');
  });

  it('imports nothing of Node at load, so Bun and Deno load it too; undici only on demand', () => {
    const code = read('index.js');
    const staticImports = [...code.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    expect(staticImports).toEqual([]);
    expect(code).not.toMatch(/from\s*['"]node:|require\(/);
    expect(code).toMatch(/import\(\s*['"]undici['"]\s*\)/);
  });

  it('declares nothing it does not carry: every module its declarations import is a file of the package', () => {
    const declarations = readdirSync(join(folder, 'types'), { recursive: true, withFileTypes: true }).filter((entry) => entry.name.endsWith('.d.ts'));
    const outside = declarations.flatMap((file) => {
      const text = readFileSync(join(file.parentPath, file.name), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
      return specifiers
        .filter((specifier) => !specifier.startsWith('.') || !existsSync(join(file.parentPath, specifier.replace(/\.js$/, '.d.ts'))))
        .map((specifier) => `${relative(folder, join(file.parentPath, file.name))}: ${specifier}`);
    });
    expect(outside).toEqual([]);
    expect(read('types/shared/catalog/endpoints.d.ts')).toMatch(/^import \* as z from '\.\.\/\.\.\/vendor\/zod\/mini\/index\.js';/);
  });

  it('installs from its tarball alone in at most 3.5 MB, without zod, and a nodenext consumer type-checks against it', async () => {
    const packs = mkdtempSync(join(tmpdir(), 'pagerly-client-tarball-'));
    try {
      const install = await clientInstall(pack(folder, packs).tarball);
      expect(install.problem).toBeUndefined();
      expect(install.packages.toSorted()).toEqual(['@pagerly/client', 'undici']);
      expect(install.kib).toBeLessThanOrEqual(CLIENT_INSTALLED_MAX_KIB);
    } finally {
      rmSync(packs, { recursive: true, force: true });
    }
  }, 120_000);

  it('declares with the .js specifiers of the files beside them, never .ts', () => {
    const declarations = readdirSync(join(folder, 'types'), { recursive: true, withFileTypes: true }).filter((entry) => entry.name.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    for (const file of declarations) {
      const text = readFileSync(join(file.parentPath, file.name), 'utf8');
      expect({ file: relative(folder, join(file.parentPath, file.name)), ts: text.match(/['"]\.{1,2}\/[^'"]+\.ts['"]/g) }).toEqual({
        file: expect.any(String),
        ts: null,
      });
    }
  });

  it("carries OPERATIONS.md, the Client surface's page, with every operation that calls an endpoint", () => {
    const page = read('OPERATIONS.md');
    expect(page).toBe(clientSurface.generate({ operations, endpoints }).get('OPERATIONS.md'));
    for (const operation of operations.filter((op) => op.kind !== 'hook')) expect(page).toContain(`## \`${operation.id}\`: `);
  });

  it('carries the MIT licence it declares', () => {
    // MIT's terms ask for the notice in every copy; npm packs LICENSE whatever `files` says
    // (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#files).
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Pagerly\n/);
    // zod's MIT notice goes with the zod code and declarations it carries.
    expect(read('LICENSE')).toMatch(/includes code and type declarations of zod [\d.]+[\s\S]+Copyright \(c\) \d{4} Colin McDonnell/);
  });
});
