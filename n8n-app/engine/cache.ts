import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
 * `PAGERLY_N8N_NEWEST=<version>` tries one without editing, and moving the pin is this one
 * line (docs/n8n.md). n8n 2.36 and later want Node 24 (`engines: >=24.0.0`), which the
 * `node` package brings into the line's folder.
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
/**
 * The line's own npm folder in the cache: its package.json, node_modules and, for some, its
 * Node. An earlier layout kept the default line straight in the cache folder: such an install
 * is used where it is, not downloaded again nor moved (checkouts still on that layout may
 * share the cache through PAGERLY_N8N_CACHE).
 */
export function lineDir(line: EngineLine = DEFAULT_LINE): string {
  const own = join(cacheDir(), `n8n-${line.id}`);
  const earlier = line.id === DEFAULT_LINE.id && !existsSync(own) && existsSync(join(cacheDir(), 'node_modules', 'n8n', 'package.json'));
  return earlier ? cacheDir() : own;
}
export const n8nBin = (line: EngineLine = DEFAULT_LINE) => join(lineDir(line), 'node_modules', 'n8n', 'bin', 'n8n');
/** The Node executable n8n of this line runs on: its own from the `node` package, else this process's. */
export const nodeBin = (line: EngineLine = DEFAULT_LINE) => (line.node ? join(lineDir(line), 'node_modules', 'node', 'bin', 'node') : process.execPath);
const sqliteBinary = (line: EngineLine) => join(lineDir(line), 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

const installedVersion = (folder: string, name: string): string | undefined => {
  const path = join(folder, 'node_modules', name, 'package.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version : undefined;
};

/** The line's Node answers with its version: the `node` package's binary really landed. */
const lineNodeRuns = (line: EngineLine) =>
  !line.node || (existsSync(nodeBin(line)) && spawnSync(nodeBin(line), ['--version'], { encoding: 'utf8' }).stdout.trim() === `v${line.node}`);

function npm(folder: string, args: string[], step: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`The step "${step}" failed in ${folder} (npm exit ${result.status ?? result.signal}); see npm's output above.`);
}

/**
 * The folder's package.json; `allowScripts` lists the packages whose install scripts npm may run
 * (npm 11 runs no others): the `node` package's fetches its binary.
 */
function ensurePackageFolder(folder: string, name: string, allowScripts: Record<string, boolean> = {}): void {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'package.json');
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : { name, private: true };
  const allowed = { ...(current.allowScripts as Record<string, boolean> | undefined), ...allowScripts };
  writeFileSync(file, `${JSON.stringify({ ...current, ...(Object.keys(allowed).length ? { allowScripts: allowed } : {}) }, null, 2)}\n`);
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

/** Whether the line's engine (and its Node) is installed and built in the cache, so a run needs no download. */
export function engineReady(line: EngineLine = DEFAULT_LINE): boolean {
  return installedVersion(lineDir(line), 'n8n') === line.n8n && existsSync(sqliteBinary(line)) && lineNodeRuns(line);
}

/**
 * One line of n8n: its Node first where it has its own (the `node` package's install script
 * fetches the platform's binary, so scripts stay on for it), then n8n without install scripts
 * (they fetch nothing needed and some fail offline), then sqlite3, n8n's default database
 * driver, rebuilt with the line's Node first on PATH. Each step is skipped when its result is
 * in place; a failing step throws an error naming it.
 */
export function ensureEngine(line: EngineLine = DEFAULT_LINE): CacheStep[] {
  const folder = lineDir(line);
  const steps: CacheStep[] = [];
  if (line.node) {
    const node = line.node;
    const ready = installedVersion(folder, 'node') === node && lineNodeRuns(line);
    steps.push(
      timed(`npm install node@${node}`, ready, () => {
        if (ready) return;
        ensurePackageFolder(folder, `pagerly-n8n-engine-${line.id}`, { node: true });
        npm(folder, ['install', `node@${node}`, '--save-exact'], `install Node ${node} for n8n ${line.n8n} (the node package)`);
        if (!lineNodeRuns(line)) throw new Error(`The step "install Node ${node}" left no working ${nodeBin(line)}.`);
      }),
    );
  }
  const ready = installedVersion(folder, 'n8n') === line.n8n;
  steps.push(
    timed(`npm install n8n@${line.n8n}`, ready, () => {
      if (ready) return;
      ensurePackageFolder(folder, `pagerly-n8n-engine-${line.id}`);
      npm(folder, ['install', `n8n@${line.n8n}`, '--ignore-scripts', '--save-exact'], `install n8n ${line.n8n}`);
    }),
  );
  const built = existsSync(sqliteBinary(line));
  const env = { ...process.env, PATH: `${dirname(nodeBin(line))}${delimiter}${process.env.PATH ?? ''}` };
  steps.push(
    timed('npm rebuild sqlite3', built, () => {
      if (!built)
        npm(folder, ['rebuild', 'sqlite3'], `build sqlite3 for n8n ${line.n8n} on Node ${line.node ?? process.versions.node} (see CONTRIBUTING.md)`, env);
    }),
  );
  return steps;
}

/**
 * Written last by `ensureTools`: the tools' package.json files appear while npm is still
 * unpacking their dependencies, so only this says the install ended (CI installs beside the
 * tests, which check for the tools).
 */
const toolsMarker = () => join(toolsDir(), 'installed.json');
const toolsMarkerText = `${JSON.stringify(TOOL_VERSIONS)}\n`;

/** Whether n8n's package tools are installed in the cache, whole, at the versions pinned here. */
export const toolsReady = (): boolean => existsSync(toolsMarker()) && readFileSync(toolsMarker(), 'utf8') === toolsMarkerText;

/** n8n's lint (`@n8n/node-cli`) and package scanner (`@n8n/scan-community-package`), beside the engine. */
export function ensureTools(): CacheStep {
  const folder = toolsDir();
  const ready = toolsReady();
  return timed(`npm install ${Object.keys(TOOL_VERSIONS).join(' ')}`, ready, () => {
    if (ready) return;
    ensurePackageFolder(folder, 'pagerly-n8n-tools');
    npm(
      folder,
      ['install', ...Object.entries(TOOL_VERSIONS).map(([name, version]) => `${name}@${version}`), '--ignore-scripts', '--save-exact'],
      "install n8n's package tools",
    );
    writeFileSync(toolsMarker(), toolsMarkerText);
  });
}
