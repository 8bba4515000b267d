import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Scripts are entry points (`npm run ...`): they may use the libraries, never the other way
 * round, so a library can move or be published without dragging a script along. Tests may
 * import a script to test it.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.cache', '.git', 'test', 'scripts', 'coverage']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

/** A static, side-effect or dynamic import of a path under a `scripts/` folder, however far up. */
const SCRIPT_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](?:\.{1,2}\/)+scripts\//;

describe('layering', () => {
  it('recognises every form of importing a script', () => {
    const imports = [
      "import { x } from '../scripts/x.ts';",
      "import '../../scripts/x.ts';",
      "const x = await import('../scripts/x.ts');",
      'export { x } from "./scripts/x.ts";',
    ];
    expect(imports.filter((line) => !SCRIPT_IMPORT.test(line))).toEqual([]);
    expect(SCRIPT_IMPORT.test("import { x } from '../shared/scripts-free.ts';")).toBe(false);
    expect(SCRIPT_IMPORT.test("import { x } from '../make-app/scripts.ts';")).toBe(false);
  });

  it('no library imports a script', () => {
    const files = sources(root);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) => SCRIPT_IMPORT.test(readFileSync(file, 'utf8'))).map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
