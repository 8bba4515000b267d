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

/** The relative imports of one file (static, side-effect, type-only and re-exports), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|^import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)].map((match) => join(file, '..', match[1]!));
}

/** Each import cycle among `files`, as the list of files round it (relative to the root). */
function cyclesAmong(files: readonly string[], importsIn: (file: string) => string[] = importsOf): string[][] {
  const known = new Set(files);
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      cycles.push(path.slice(at).map((f) => relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    for (const next of importsIn(file).filter((f) => known.has(f))) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of files) visit(file, []);
  return cycles;
}

describe('the command line', () => {
  it('finds a cycle when there is one', () => {
    const graph: Record<string, string[]> = {
      [join(root, 'a.ts')]: [join(root, 'b.ts')],
      [join(root, 'b.ts')]: [join(root, 'a.ts')],
      [join(root, 'c.ts')]: [join(root, 'a.ts')],
    };
    expect(cyclesAmong(Object.keys(graph), (file) => graph[file] ?? [])).toEqual([['a.ts', 'b.ts']]);
    expect(importsOf(join(root, 'cli/colour.ts'))).toContain(join(root, 'cli/out-stream.ts'));
  });

  // A cycle makes the load order decide what is defined when a module runs; colour and
  // output each stand alone (out-stream.ts holds the stream type both use).
  it('has no import cycle among its modules', () => {
    const files = sources(join(root, 'cli'));
    expect(files.length).toBeGreaterThan(20);
    expect(cyclesAmong(files)).toEqual([]);
  });
});
