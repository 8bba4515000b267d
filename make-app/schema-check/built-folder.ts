import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * A built Make app (`npm run build` writes dist/make/) read back as the generator's map: path →
 * JSON value, or text for README.md. The review check then holds what would be uploaded, not a
 * copy made in memory.
 */
export function filesOfFolder(folder: string): Map<string, unknown> {
  const files = new Map<string, unknown>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const text = readFileSync(path, 'utf8');
        const name = relative(folder, path).split(sep).join('/');
        files.set(name, name.endsWith('.json') ? JSON.parse(text) : text);
      }
    }
  };
  walk(folder);
  return files;
}
