// `npm run n8n:lock`: writes the lock file each cache folder installs from
// (n8n-app/engine/locks/), resolved from the registry as of today. Run it after moving a pin in
// cache.ts (a test fails until the locks match the pins), or to take newer transitive versions
// on purpose; then run the e2e before committing. `-- --line newest` (or `2.35`, `tools`)
// writes one lock only.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type FolderManifest, LINES, type LineId, lineManifest, locksDir, lockFile, packageSpecs, toolsManifest } from './cache.ts';

const folders: Record<string, FolderManifest> = {
  ...Object.fromEntries(Object.values(LINES).map((line) => [`n8n-${line.id}`, lineManifest(line)])),
  tools: toolsManifest(),
};
const { values } = parseArgs({ options: { line: { type: 'string', multiple: true } } });
const wanted = (values.line ?? [...Object.keys(LINES), 'tools']).map((id) => (id === 'tools' ? id : `n8n-${id as LineId}`));
const unknown = wanted.filter((name) => !Object.hasOwn(folders, name));
if (unknown.length) {
  console.error(`No cache folder ${unknown.join(', ')}: the choices are ${[...Object.keys(LINES), 'tools'].join(', ')}.`);
  process.exit(2);
}

mkdirSync(locksDir, { recursive: true });
for (const name of wanted) {
  const manifest = folders[name]!;
  const scratch = mkdtempSync(join(tmpdir(), `pagerly-lock-${name}-`));
  try {
    writeFileSync(join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const result = spawnSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: scratch,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`npm could not resolve ${name} (npm exit ${result.status ?? result.signal}); see its output above.`);
    copyFileSync(join(scratch, 'package-lock.json'), lockFile(name));
    console.log(`${lockFile(name)}: ${packageSpecs(manifest)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
