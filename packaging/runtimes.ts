import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The runtimes the packages claim besides the project's Node 22, from npm (the only registry CI
 * reaches): the `node` package brings a Node 24 binary, `bun` and `deno` theirs. Installed once
 * into .cache/runtimes/ (git ignores it; PAGERLY_RUNTIMES_CACHE moves it) and reused.
 */
export const RUNTIME_VERSIONS = { node: '24.21.0', bun: '1.4.5', deno: '2.9.6' } as const;

export interface Runtime {
  /** "Node 22", "Node 24", "Bun", "Deno". */
  readonly name: string;
  /** The command and the arguments before the script. */
  readonly command: string;
  readonly args: readonly string[];
}

const cache = process.env.PAGERLY_RUNTIMES_CACHE ?? fileURLToPath(new URL('../.cache/runtimes/', import.meta.url));
const bin = (name: string) => join(cache, 'node_modules', '.bin', name);
export const node24Bin = join(cache, 'node_modules', 'node', 'bin', 'node');

const works = (command: string, expected: string) => existsSync(command) && spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.includes(expected);

/**
 * One install at a time into the cache: jest runs test files side by side, and two of them may
 * each want a runtime on a fresh machine; two npm installs into one folder trip over each other.
 * A lock folder (mkdir is atomic), waited for up to 5 minutes; one older than that is stale.
 */
function oneInstallAtATime(ready: () => boolean, install: () => void): void {
  if (ready()) return;
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, '.install.lock');
  const giveUpAt = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      let age: number;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // Released between the two calls: try again at once.
      }
      if (age > 300_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > giveUpAt) throw new Error(`Another install into ${cache} holds ${lock}; remove it if none is running.`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    // What the install before ours put in place counts.
    if (!ready()) install();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Installs what is missing (about 15 s and 250 MB the first time); each binary is checked by its --version. */
export function installRuntimes(): void {
  const ready = () => works(node24Bin, `v${RUNTIME_VERSIONS.node}`) && works(bin('bun'), RUNTIME_VERSIONS.bun) && works(bin('deno'), RUNTIME_VERSIONS.deno);
  oneInstallAtATime(ready, installAll);
}

function installAll(): void {
  const manifest = {
    name: 'pagerly-runtimes',
    private: true,
    dependencies: RUNTIME_VERSIONS,
    // Each package's install script puts its platform's binary in place.
    allowScripts: { node: true, bun: true, deno: true },
  };
  writeFileSync(join(cache, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const [name, command] of [
    ['node', node24Bin],
    ['bun', bin('bun')],
    ['deno', bin('deno')],
  ] as const) {
    if (!works(command, RUNTIME_VERSIONS[name])) throw new Error(`${name} ${RUNTIME_VERSIONS[name]} did not install into ${cache}`);
  }
}

/**
 * Node 24 alone, for a test that runs the CLI or a package on both Nodes (about 10 s the
 * first time). Where all three runtimes are wanted later, installRuntimes adds Bun and Deno.
 */
export function installNode24(): void {
  oneInstallAtATime(() => works(node24Bin, `v${RUNTIME_VERSIONS.node}`), installNode24Now);
}

function installNode24Now(): void {
  const manifest = { name: 'pagerly-runtimes', private: true, dependencies: { node: RUNTIME_VERSIONS.node }, allowScripts: { node: true } };
  if (!existsSync(join(cache, 'package.json'))) writeFileSync(join(cache, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--no-save', `node@${RUNTIME_VERSIONS.node}`], {
    cwd: cache,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!works(node24Bin, `v${RUNTIME_VERSIONS.node}`)) throw new Error(`node ${RUNTIME_VERSIONS.node} did not install into ${cache}`);
}

/** Node 22 (the project's: `npm run` puts it first) and Node 24. */
export const nodeRuntimes = (): Runtime[] => [
  { name: `Node ${process.versions.node.split('.')[0]}`, command: process.execPath, args: [] },
  { name: 'Node 24', command: node24Bin, args: [] },
];

/** Every runtime the client claims. Deno is given only what the import and the call need. */
export const clientRuntimes = (): Runtime[] => [
  ...nodeRuntimes(),
  { name: 'Bun', command: bin('bun'), args: ['run'] },
  { name: 'Deno', command: bin('deno'), args: ['run', '--allow-env', '--allow-net', '--allow-read'] },
];
