import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The n8n engine and n8n's package tools, installed once into a cache folder that git ignores
 * and reused by every later run. `PAGERLY_N8N_CACHE` points elsewhere (an install shared
 * between checkouts). Each engine line has its own folder in it, so installing one never
 * disturbs another, and bumping a line's pin updates that folder in place.
 */
export interface EngineLine {
  /** The line's name and its folder in the cache. */
  readonly id: LineId;
  /** The exact n8n version the line runs. */
  readonly n8n: string;
  /**
   * The exact version of the `node` npm package n8n runs on, installed into the line's folder;
   * absent: the project's own Node (the `node` devDependency).
   */
  readonly node?: string;
  /** Why this line, in a few words (printed by the e2e). */
  readonly about: string;
}
export type LineId = '2.35' | 'newest';

/**
 * n8n 2.35 is the last line that runs on Node 22, the project's Node (its `engines` say
 * `>=22.22`). The newest line is pinned, not resolved at install time: a release on the
 * registry must not turn a green CI red overnight nor force a cold 3 GB install into a run
 * that changed nothing, and the registry can list a version whose dependencies it does not
 * serve (n8n 2.41.3 needs `@n8n/agents@0.26.2`, which it lacks: npm fails with ETARGET), so
 * the pin is the newest 2.x that installs. The e2e says when the registry lists a newer 2.x;
 * `PAGERLY_N8N_NEWEST=<version>` tries one without editing; moving the pin is this line and
 * `npm run n8n:lock -- --line newest` (docs/n8n.md). n8n 2.36 and later want Node 24
 * (`engines: >=24.0.0`), which the `node` package brings into the line's folder.
 */
export const NEWEST_PIN = '2.41.1';
export const LINES: Readonly<Record<LineId, EngineLine>> = {
  '2.35': { id: '2.35', n8n: '2.35.7', about: 'the last n8n line on Node 22, the project Node' },
  newest: { id: 'newest', n8n: process.env.PAGERLY_N8N_NEWEST?.trim() || NEWEST_PIN, node: '24.21.0', about: 'the newest n8n 2.x that installs, on Node 24' },
};
/** The line `npm start` and `npm run n8n:check` use: the one on the project's own Node. */
export const DEFAULT_LINE = LINES['2.35'];
export const N8N_VERSION = DEFAULT_LINE.n8n;
export const TOOL_VERSIONS = { '@n8n/node-cli': '0.48.3', '@n8n/scan-community-package': '0.32.0' } as const;

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cacheDir = () => process.env.PAGERLY_N8N_CACHE?.trim() || join(repoRoot, '.cache', 'n8n');
export const toolsDir = () => join(cacheDir(), 'tools');
/** The line's own npm folder in the cache: its package.json, node_modules and, for some, its Node. */
export const lineDir = (line: EngineLine = DEFAULT_LINE): string => join(cacheDir(), `n8n-${line.id}`);
export const n8nBin = (line: EngineLine = DEFAULT_LINE) => join(lineDir(line), 'node_modules', 'n8n', 'bin', 'n8n');
/** The Node executable n8n of this line runs on: its own from the `node` package, else this process's. */
export const nodeBin = (line: EngineLine = DEFAULT_LINE) => (line.node ? join(lineDir(line), 'node_modules', 'node', 'bin', 'node') : process.execPath);
const sqliteBinary = (line: EngineLine) => join(lineDir(line), 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

/** The version of a package installed in a folder's node_modules, if any. */
const installedVersion = (folder: string, name: string): string | undefined => {
  const file = join(folder, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
};
const sqliteVersion = (line: EngineLine) => installedVersion(lineDir(line), 'sqlite3');
/**
 * Another line whose sqlite3 is the same version and built. sqlite3 builds against N-API (its
 * package.json lists `napi_versions`), so one build loads on Node 22 and 24 alike, and with no
 * prebuilt binary reachable a build is a 90 s node-gyp compile: the second line copies the first's.
 */
function sqliteBuiltElsewhere(line: EngineLine): EngineLine | undefined {
  const version = sqliteVersion(line);
  return Object.values(LINES).find((other) => other.id !== line.id && version && sqliteVersion(other) === version && existsSync(sqliteBinary(other)));
}

/** The line's Node answers with its version: the `node` package's binary really landed. */
const lineNodeRuns = (line: EngineLine) =>
  !line.node || (existsSync(nodeBin(line)) && spawnSync(nodeBin(line), ['--version'], { encoding: 'utf8' }).stdout.trim() === `v${line.node}`);

function npm(folder: string, args: string[], step: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`The step "${step}" failed in ${folder} (npm exit ${result.status ?? result.signal}); see npm's output above.`);
}

/**
 * What a cache folder installs: its package.json. `allowScripts` lists the packages whose
 * install scripts may run (the `node` package's fetches its binary); every other script is off.
 */
export interface FolderManifest {
  readonly name: string;
  readonly private: true;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly allowScripts?: Readonly<Record<string, boolean>>;
}
export const lineManifest = (line: EngineLine): FolderManifest => ({
  name: `pagerly-n8n-engine-${line.id}`,
  private: true,
  dependencies: { n8n: line.n8n, ...(line.node ? { node: line.node } : {}) },
  ...(line.node ? { allowScripts: { node: true } } : {}),
});
/** The manifest's packages as npm names them on its command line: `n8n@2.35.7 node@24.21.0`. */
export const packageSpecs = (manifest: FolderManifest) =>
  Object.entries(manifest.dependencies)
    .map(([name, version]) => `${name}@${version}`)
    .join(' ');
export const toolsManifest = (): FolderManifest => ({ name: 'pagerly-n8n-tools', private: true, dependencies: TOOL_VERSIONS });

/**
 * Each cache folder installs from a lock file committed here (`npm run n8n:lock` writes them):
 * n8n brings about 2,300 packages, and without a lock npm resolves each from the registry on
 * every cold install (a third of its time) and picks whatever versions are newest that day, so
 * a transitive release could turn CI red on a run that changed nothing. A lock applies only to
 * the dependencies it was made for: a version tried through `PAGERLY_N8N_NEWEST` installs
 * without one.
 */
export const locksDir = join(repoRoot, 'n8n-app', 'engine', 'locks');
export const lockFile = (folderName: string) => join(locksDir, `${folderName}.package-lock.json`);
const sameDependencies = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>> = {}) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The committed lock for this manifest, or undefined where there is none or it was made for other versions. */
export function committedLock(folderName: string, manifest: FolderManifest): string | undefined {
  const file = lockFile(folderName);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const root = (JSON.parse(text) as { packages?: Record<string, { dependencies?: Record<string, string> }> }).packages?.[''];
  return sameDependencies(manifest.dependencies, root?.dependencies) ? text : undefined;
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

/**
 * Written last into a folder, once its packages are all in: npm writes package.json files
 * while it is still unpacking, so only this says the install ended (CI installs beside the
 * tests, which look for the tools). It names the dependencies and the lock they came from, so
 * a moved pin or a new lock installs again.
 */
const record = (folder: string) => join(folder, 'installed.json');
const recordText = (manifest: FolderManifest, lock: string | undefined) =>
  `${JSON.stringify({ dependencies: manifest.dependencies, lock: lock ? createHash('sha256').update(lock).digest('hex') : null })}\n`;
const installed = (folder: string, manifest: FolderManifest, lock: string | undefined) =>
  existsSync(record(folder)) && readFileSync(record(folder), 'utf8') === recordText(manifest, lock);

/**
 * The folder's packages, without install scripts (they fetch nothing needed and some fail
 * offline): `npm ci` from the committed lock, else `npm install` of the manifest.
 */
function installPackages(folder: string, folderName: string, manifest: FolderManifest, step: string): CacheStep {
  const lock = committedLock(folderName, manifest);
  const versions = packageSpecs(manifest);
  const ready = installed(folder, manifest, lock);
  return timed(lock ? `npm ci (${versions}, locked)` : `npm install ${versions} (no lock)`, ready, () => {
    if (ready) return;
    mkdirSync(folder, { recursive: true });
    rmSync(record(folder), { force: true });
    writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (lock) writeFileSync(join(folder, 'package-lock.json'), lock);
    else rmSync(join(folder, 'package-lock.json'), { force: true });
    npm(folder, [lock ? 'ci' : 'install', '--ignore-scripts'], step);
    writeFileSync(record(folder), recordText(manifest, lock));
  });
}

/** Whether the line's engine (and its Node) is installed and built in the cache, so a run needs no download. */
export function engineReady(line: EngineLine = DEFAULT_LINE): boolean {
  const manifest = lineManifest(line);
  return installed(lineDir(line), manifest, committedLock(`n8n-${line.id}`, manifest)) && existsSync(sqliteBinary(line)) && lineNodeRuns(line);
}

/**
 * One line of n8n: its packages (n8n, and the `node` package where the line has its own Node),
 * then the `node` package's install script, which fetches the platform's binary, then sqlite3,
 * n8n's default database driver, rebuilt with the line's Node first on PATH. Each step is
 * skipped when its result is in place; a failing step throws an error naming it.
 */
export function ensureEngine(line: EngineLine = DEFAULT_LINE): CacheStep[] {
  const folder = lineDir(line);
  const steps = [installPackages(folder, `n8n-${line.id}`, lineManifest(line), `install n8n ${line.n8n}`)];
  if (line.node) {
    const node = line.node;
    const ready = lineNodeRuns(line);
    steps.push(
      timed(`npm rebuild node (Node ${node})`, ready, () => {
        if (ready) return;
        npm(folder, ['rebuild', 'node'], `install Node ${node} for n8n ${line.n8n} (the node package)`);
        if (!lineNodeRuns(line)) throw new Error(`The step "install Node ${node}" left no working ${nodeBin(line)}.`);
      }),
    );
  }
  const built = existsSync(sqliteBinary(line));
  const donor = built ? undefined : sqliteBuiltElsewhere(line);
  const env = { ...process.env, PATH: `${dirname(nodeBin(line))}${delimiter}${process.env.PATH ?? ''}` };
  steps.push(
    timed(donor ? `sqlite3 build copied from ${donor.id}` : 'npm rebuild sqlite3', built, () => {
      if (built) return;
      if (donor) cpSync(dirname(dirname(sqliteBinary(donor))), dirname(dirname(sqliteBinary(line))), { recursive: true });
      else npm(folder, ['rebuild', 'sqlite3'], `build sqlite3 for n8n ${line.n8n} on Node ${line.node ?? process.versions.node} (see CONTRIBUTING.md)`, env);
    }),
  );
  return steps;
}

/** Whether n8n's package tools are installed in the cache, whole, at the versions pinned here. */
export const toolsReady = (): boolean => installed(toolsDir(), toolsManifest(), committedLock('tools', toolsManifest()));

/** n8n's lint (`@n8n/node-cli`) and package scanner (`@n8n/scan-community-package`), beside the engine. */
export const ensureTools = (): CacheStep => installPackages(toolsDir(), 'tools', toolsManifest(), "install n8n's package tools");
