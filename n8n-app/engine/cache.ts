import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The n8n engine and n8n's package tools, installed once into a cache folder that git ignores
 * and reused by every later run. n8n 2.35 is the last line that runs on Node 22, the
 * project's Node. `PAGERLY_N8N_CACHE` points elsewhere (an install shared between checkouts).
 */
export const N8N_VERSION = '2.35.7';
export const TOOL_VERSIONS = { '@n8n/node-cli': '0.48.3', '@n8n/scan-community-package': '0.32.0' } as const;

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cacheDir = () => process.env.PAGERLY_N8N_CACHE?.trim() || join(repoRoot, '.cache', 'n8n');
export const toolsDir = () => join(cacheDir(), 'tools');
export const n8nBin = () => join(cacheDir(), 'node_modules', 'n8n', 'bin', 'n8n');

const installedVersion = (folder: string, name: string): string | undefined => {
  const path = join(folder, 'node_modules', name, 'package.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version : undefined;
};

function npm(folder: string, args: string[], what: string): void {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${what} failed in ${folder} (npm exit ${result.status ?? result.signal}); see npm's output above.`);
}

function ensurePackageFolder(folder: string, name: string): void {
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(folder, 'package.json'))) writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name, private: true }, null, 2)}\n`);
}

export interface CacheStep {
  readonly what: string;
  readonly seconds: number;
  readonly reused: boolean;
}

const timed = (what: string, reused: boolean, work: () => void): CacheStep => {
  const started = performance.now();
  work();
  return { what, reused, seconds: (performance.now() - started) / 1000 };
};

/** Whether the engine is installed and built in the cache, so a run needs no download. */
export function engineReady(): boolean {
  return (
    installedVersion(cacheDir(), 'n8n') === N8N_VERSION && existsSync(join(cacheDir(), 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))
  );
}

/**
 * n8n itself: installed without install scripts (they fetch nothing we need and some fail
 * offline), then sqlite3, n8n's default database driver, rebuilt for the running Node.
 */
export function ensureEngine(): CacheStep[] {
  const folder = cacheDir();
  const sqliteBinary = join(folder, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
  const ready = installedVersion(folder, 'n8n') === N8N_VERSION;
  const steps = [
    timed(`npm install n8n@${N8N_VERSION}`, ready, () => {
      if (ready) return;
      ensurePackageFolder(folder, 'pagerly-n8n-engine');
      npm(folder, ['install', `n8n@${N8N_VERSION}`, '--ignore-scripts', '--save-exact'], `Installing n8n ${N8N_VERSION}`);
    }),
  ];
  const built = existsSync(sqliteBinary);
  steps.push(
    timed('npm rebuild sqlite3', built, () => {
      if (!built) npm(folder, ['rebuild', 'sqlite3'], 'Building sqlite3 for this Node (see CONTRIBUTING.md)');
    }),
  );
  return steps;
}

/** n8n's lint (`@n8n/node-cli`) and package scanner (`@n8n/scan-community-package`), beside the engine. */
export function ensureTools(): CacheStep {
  const folder = toolsDir();
  const ready = Object.entries(TOOL_VERSIONS).every(([name, version]) => installedVersion(folder, name) === version);
  return timed(`npm install ${Object.keys(TOOL_VERSIONS).join(' ')}`, ready, () => {
    if (ready) return;
    ensurePackageFolder(folder, 'pagerly-n8n-tools');
    npm(
      folder,
      ['install', ...Object.entries(TOOL_VERSIONS).map(([name, version]) => `${name}@${version}`), '--ignore-scripts', '--save-exact'],
      "Installing n8n's package tools",
    );
  });
}
