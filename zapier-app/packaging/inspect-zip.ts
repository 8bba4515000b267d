import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';

export interface ZipReport {
  bytes: number;
  files: number;
  /** Top-level packages under node_modules, e.g. ["lodash", "zapier-platform-core"]. */
  packages: string[];
  /** Files outside node_modules: what we ship ourselves. */
  ownFiles: string[];
  /** Trigger, create and search keys of the app loaded from the extracted zip. */
  loaded: { triggers: string[]; creates: string[]; searches: string[]; version: string };
}

/** What the upload zip holds, and proof that it loads: extracted to a temp dir and required there. */
export function inspectZip(zipPath: string, bytes: number): ZipReport {
  const zip = new AdmZip(zipPath);
  const names = zip
    .getEntries()
    .filter((e) => !e.isDirectory)
    .map((e) => e.entryName);
  const packages = [
    ...new Set(
      names
        .filter((n) => n.startsWith('node_modules/'))
        .map((n) => {
          const [, first, second] = n.split('/');
          return first?.startsWith('@') ? `${first}/${second}` : first!;
        }),
    ),
  ].sort();
  const dir = mkdtempSync(join(tmpdir(), 'pagerly-zapier-zip-'));
  try {
    zip.extractAllTo(dir, true);
    const app = createRequire(join(dir, 'index.js'))('./index.js') as Record<string, Record<string, unknown> | string>;
    const keys = (name: string) => Object.keys((app[name] as Record<string, unknown> | undefined) ?? {}).sort();
    return {
      bytes,
      files: names.length,
      packages,
      ownFiles: names.filter((n) => !n.startsWith('node_modules/')).sort(),
      loaded: { triggers: keys('triggers'), creates: keys('creates'), searches: keys('searches'), version: String(app.version) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
