import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import type { ExtractOptions } from './model.ts';
import { writeWholeFile } from '../../shared/whole-file.ts';

/**
 * What an extractor built with the type checker (the CLI's `--json` documents, the client's
 * declarations read by API Extractor), kept by a digest of everything it read: the checkout's own
 * files it reaches (each file's relative imports, followed by TypeScript's import scanner), the
 * extractor's code, and the installed packages (package-lock.json). The same digest, the same
 * result; any change to what it read, a new digest. Kept in memory for a caller that reads many
 * copies in one process (the corpus: `options.cache`), and on disk for `npm run api:check` and
 * `api:update` from one run to the next (`options.keepDir`, under node_modules/.cache/): a pull
 * request that leaves the client alone is checked without building it. A fresh clone keeps
 * nothing, and the tests read afresh.
 */

/** Where api:check and api:update keep what they read, beside what other tools keep in node_modules. */
export const keepDirIn = (root: string) => join(root, 'node_modules', '.cache', 'pagerly-api');

/** How many kept results of one name stay on disk: the newest, enough for a few branches. */
const KEPT_PER_NAME = 8;

/** A digest of the files reached from `rootNames` (relative to `root`, so a copy elsewhere reads the same), the packages and `extras`. */
export function sourcesDigest(root: string, rootNames: readonly string[], extras: readonly string[] = []): string {
  const hash = createHash('sha256');
  for (const extra of extras) hash.update(`${extra}\0`);
  const lock = join(root, 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    hash.update(`${relative(root, file)}\0${text}\0`);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(resolve(dirname(file), fileName));
    }
  };
  rootNames.forEach(visit);
  return hash.digest('hex');
}

/** The result kept under `name` and `digest`, or `build()`'s, kept. */
export async function kept<T>(options: ExtractOptions, name: string, digest: string, build: () => T | Promise<T>): Promise<T> {
  const key = `${name}-${digest.slice(0, 32)}`;
  if (options.cache?.has(key)) return options.cache.get(key) as T;
  const file = options.keepDir && join(options.keepDir, `${key}.json`);
  if (file && existsSync(file)) {
    try {
      const value = JSON.parse(readFileSync(file, 'utf8')) as T;
      options.cache?.set(key, value);
      return value;
    } catch {
      // A file cut short (a run stopped while writing it) is read afresh and written again.
    }
  }
  const value = await build();
  options.cache?.set(key, value);
  if (file && options.keepDir) keepOnDisk(options.keepDir, name, file, value);
  return value;
}

function keepOnDisk(dir: string, name: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeWholeFile(file, JSON.stringify(value));
  const older = readdirSync(dir)
    .filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.json'))
    .map((entry) => join(dir, entry))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .slice(KEPT_PER_NAME);
  for (const stale of older) rmSync(stale, { force: true });
}
