import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildClientPackage } from '../../client/build-client-package.ts';
import { clientSurface } from '../../client/surface.ts';
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
    expect(Object.keys(pkg.dependencies).toSorted()).toEqual(['undici', 'zod']);
    expect(read('types/client/index.d.ts')).toContain('export declare function createClient(settings: ClientSettings): PagerlyClient;');
  });

  it('imports nothing of Node at load, so Bun and Deno load it too; undici only on demand', () => {
    const code = read('index.js');
    const staticImports = [...code.matchAll(/^import\b[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]);
    expect(staticImports.every((specifier) => specifier?.startsWith('zod'))).toBe(true);
    expect(code).not.toMatch(/from\s*['"]node:|require\(/);
    expect(code).toMatch(/import\(\s*['"]undici['"]\s*\)/);
  });

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
  });
});
