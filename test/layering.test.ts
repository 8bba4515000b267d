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
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('layering', () => {
  it('no library imports a script', () => {
    const files = sources(root);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) => /from ['"](\.\.\/)+scripts\//.test(readFileSync(file, 'utf8'))).map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
