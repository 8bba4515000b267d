import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/**
 * Scratch copies of the sources, as a pull request would change them: the files the extractors
 * read (the surfaces' code, the API module, the recordings the OpenAPI document quotes), copied
 * into a folder of their own with node_modules linked, an edit applied to the copy as text, and
 * which surfaces a changed file can reach, from the sources' own imports.
 */

/** What the extractors read: every surface's code and the API module, and the data files beside them. */
const SOURCE_DIRS = [
  'shared',
  'surfaces',
  'zapier-app',
  'make-app',
  'n8n-app',
  'mcp-server',
  'openapi',
  'cli',
  'client',
  'github-action',
  'scripts',
  'test/recordings',
  'sandbox',
];
const ROOT_FILES = ['package.json', 'tsconfig.json'];

/** The files to copy, as git knows them (committed or not yet), relative to the checkout. */
export function sourceFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0');
  return listed.filter(
    (file) =>
      file &&
      (ROOT_FILES.includes(file) || SOURCE_DIRS.some((dir) => file.startsWith(`${dir}/`))) &&
      existsSync(join(root, file)) &&
      !lstatSync(join(root, file)).isSymbolicLink(),
  );
}

/**
 * A copy of `files` in `into`, node_modules linked: modules load from the copy's own paths (a
 * fresh module graph per copy), packages from the checkout's node_modules (Node resolves the
 * link to its real path, so each package loads once for every copy).
 */
export function makeCopy(root: string, files: readonly string[], into: string): void {
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    copyFileSync(join(root, file), join(into, file));
  }
  symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'));
}

/** One change a pull request makes to one file: `from`, found exactly once (or, with `all`, wherever it is), becomes `to`. */
export interface FileEdit {
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly all?: true;
}

export function applyEdits(copy: string, edits: readonly FileEdit[]): void {
  for (const { file, from, to, all } of edits) {
    const path = join(copy, file);
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(from);
    if (at < 0 || (!all && text.indexOf(from, at + 1) >= 0)) {
      throw new Error(`${file} holds ${at < 0 ? 'no' : 'more than one'} ${JSON.stringify(from.slice(0, 80))}: the sources moved on, update this corpus edit.`);
    }
    writeFileSync(path, all ? text.replaceAll(from, to) : text.slice(0, at) + to + text.slice(at + from.length));
  }
}

/** Every relative import of a module (static, type-only, side-effect, re-export, dynamic) and every `new URL('./x', import.meta.url)` it reads. */
const REFERENCE = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]|new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g;

/** Which files each file refers to, by path relative to the checkout. */
export function referenceGraph(copy: string, files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files.filter((name) => /\.(ts|js|json)$/.test(name))) {
    const text = readFileSync(join(copy, file), 'utf8');
    const targets = [...text.matchAll(REFERENCE)].map((match) => posix.normalize(posix.join(posix.dirname(file), (match[1] ?? match[2])!)));
    graph.set(file, targets);
  }
  return graph;
}

/** The files reachable from `roots`; a folder named by `new URL('./dir/', …)` reaches every file in it. */
export function reachable(graph: ReadonlyMap<string, readonly string[]>, files: readonly string[], roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const matches = file.endsWith('/') ? files.filter((name) => name.startsWith(file)) : [file];
    for (const match of matches) {
      if (seen.has(match)) continue;
      seen.add(match);
      for (const next of graph.get(match) ?? []) visit(next);
    }
  };
  roots.forEach(visit);
  return seen;
}

/** Removes a scratch folder, whatever is in it. */
export const removeScratch = (folder: string) => rmSync(folder, { recursive: true, force: true });
