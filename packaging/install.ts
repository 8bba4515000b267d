import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export interface Packed {
  readonly tarball: string;
  /** The paths inside the tarball, as npm pack lists them. */
  readonly files: readonly string[];
}

/** `npm pack` of a built package folder into `into`. */
export function pack(dir: string, into: string): Packed {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', into], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [report] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(into, report!.filename), files: report!.files.map((file) => file.path) };
}

/**
 * An empty folder with the tarballs installed, as a user's project gets them: nothing of the
 * checkout is reachable from it (it lives under the system's temporary folder).
 */
export function installIntoEmptyFolder(tarballs: readonly string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-installed-'));
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'pagerly-consumer', private: true, type: 'module' }, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  return folder;
}

/** A fresh temporary folder for tarballs. */
export const scratch = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** PATH with `nodeDir` first, HOME, the temporary folder, and `env`: nothing else of the caller's. */
export function cleanEnv(env: Record<string, string>, nodeDir?: string): Record<string, string> {
  const path = [nodeDir, process.env.PATH].filter(Boolean).join(delimiter);
  const base: Record<string, string> = { PATH: path, HOME: process.env.HOME ?? tmpdir() };
  if (process.env.TMPDIR) base.TMPDIR = process.env.TMPDIR;
  return { ...base, ...env };
}

/**
 * A command with a clean environment: PATH with `nodeDir` first (so a bin's `#!/usr/bin/env
 * node` finds that Node), HOME and the temporary folder, and `env`. Nothing of the caller's
 * npm run environment (npm_config_*, NODE_OPTIONS) leaks in. Killed after `timeoutMs`.
 */
export function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  options: { nodeDir?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd, env: cleanEnv(env, options.nodeDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Writes a file into the consumer folder (a script that imports a package by its name). */
export function writeInto(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
