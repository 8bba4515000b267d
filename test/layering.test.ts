import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/**
 * The floors, lowest first. A folder imports from its own folder or from a lower floor, never
 * from a higher one: the API module imports nothing of the project; the surface contract and
 * its build helpers only the API module; each surface (and the sandbox) those two; the entry
 * points anything below them. Beside one another on a floor, only the pairs in `SIDEWAYS`.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['shared'],
  ['surfaces'],
  ['zapier-app', 'make-app', 'n8n-app', 'mcp-server', 'openapi', 'cli', 'client', 'sandbox', 'github-action'],
  // What packs, installs and serves the npm packages for the smoke test and the bench, and the
  // runtimes they and the browser tests run on (Node 24, Bun, Deno, Debian's Chromium).
  ['packaging'],
  ['scripts', 'bench', 'bin', 'test'],
];

/** Imports between folders of one floor that are part of what the importer is, each with why. */
const SIDEWAYS: readonly { from: string; to: string; why: string }[] = [
  { from: 'cli/', to: 'mcp-server', why: 'the CLI hosts the MCP server (`pagerly mcp`)' },
  {
    from: 'bench/scale-worker.ts',
    to: 'test',
    why: "the scale bench runs the n8n node's runtime in the tests' stand-in execution context: a bench needs no n8n engine installed",
  },
  { from: 'n8n-app/e2e/', to: 'sandbox', why: "n8n's end-to-end run (npm run n8n:e2e) starts the sandbox to run its workflows against" },
];

const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));

/** Every relative import of a file: static, side-effect, re-export or dynamic. */
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The imports of `file` (relative to the root) that go up a floor or sideways without a reason. */
function upwardImports(file: string, text: string): string[] {
  const from = file.split('/')[0]!;
  const fromFloor = floorOf(from);
  return [...text.matchAll(IMPORT)].flatMap(([, specifier]) => {
    const target = relative(root, resolve(root, dirname(file), specifier!));
    const to = target.split('/')[0]!;
    // A file at the root (package.json) is data every floor may read.
    if (to === from || !target.includes('/')) return [];
    const toFloor = floorOf(to);
    if (toFloor < 0) return [`${file} imports ${target}, which is on no floor`];
    if (toFloor < fromFloor) return [];
    if (toFloor === fromFloor && SIDEWAYS.some((pair) => file.startsWith(pair.from) && pair.to === to)) return [];
    return [`${file} imports ${target}`];
  });
}

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

  it('recognises an import up a floor, and one sideways without a reason', () => {
    expect(upwardImports('shared/client.ts', "import { x } from '../surfaces/surface.ts';")).toEqual(['shared/client.ts imports surfaces/surface.ts']);
    expect(upwardImports('surfaces/surface.ts', "const x = await import('../make-app/surface.ts');")).toEqual([
      'surfaces/surface.ts imports make-app/surface.ts',
    ]);
    expect(upwardImports('n8n-app/build-n8n-app.ts', "import { w } from '../make-app/generator/write.ts';")).toEqual([
      'n8n-app/build-n8n-app.ts imports make-app/generator/write.ts',
    ]);
    expect(upwardImports('cli/commands/mcp.ts', "import { s } from '../../mcp-server/server.ts';")).toEqual([]);
    expect(upwardImports('make-app/surface.ts', "import type { Surface } from '../surfaces/surface.ts';")).toEqual([]);
    expect(upwardImports('scripts/surfaces.ts', "import { m } from '../make-app/surface.ts';")).toEqual([]);
  });

  it('imports only down the floors: nothing under the surfaces imports one, no surface another', () => {
    const files = sources(root).map((file) => relative(root, file));
    expect(files.some((file) => file.startsWith('surfaces/'))).toBe(true);
    const offenders = files.flatMap((file) => upwardImports(file, readFileSync(join(root, file), 'utf8')));
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
