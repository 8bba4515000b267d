import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildN8nApp } from './build-n8n-app.ts';
import { GITIGNORE } from './generator/package-files.ts';

/** What the package's repository ignores (its .gitignore): the compiled dist/ and node_modules/. */
const IGNORED = new Set(GITIGNORE.split('\n').filter(Boolean));

/**
 * The tree of the package's own repository (n8n-app/names.ts, REPOSITORY), written into
 * `target`, a checkout of it: everything there but `.git` is replaced by the freshly built
 * package, less what its .gitignore leaves out, so committing the folder commits exactly the
 * package's sources, runtime, README, licence and workflows. Returns the paths written.
 */
export async function writeN8nRepository(target: string): Promise<string[]> {
  const built = mkdtempSync(join(tmpdir(), 'pagerly-n8n-repo-'));
  try {
    await buildN8nApp(join(built, 'package'));
    const source = join(built, 'package');
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(target)) if (entry !== '.git') rmSync(join(target, entry), { recursive: true, force: true });
    const written: string[] = [];
    for (const entry of readdirSync(source)) {
      if (IGNORED.has(entry) || entry === '.git') continue;
      cpSync(join(source, entry), join(target, entry), { recursive: true });
    }
    for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
      const path = relative(target, join(entry.parentPath, entry.name));
      if (entry.isFile() && !path.startsWith('.git/')) written.push(path);
    }
    return written.sort();
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}
