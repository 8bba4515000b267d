import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, toolsDir } from '../engine/cache.ts';

/**
 * n8n's own checks of a built package folder, offline, from the tools in the cache
 * (`n8n-app/engine/cache.ts`): `n8n-node lint`, `npm pack`, and the static analysis of
 * `@n8n/scan-community-package` (its provenance check needs npm's registry and a published
 * version). `npm run n8n:check` and the package test both call these.
 */

/**
 * n8n's lint rules take NODE_ENV=test for their own test run and then check no file name (a
 * test runner sets it): the tools run without it.
 */
const toolEnv = (): NodeJS.ProcessEnv => {
  const { NODE_ENV: _testRun, ...env } = process.env;
  return { ...env, FORCE_COLOR: '0' };
};

export function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: toolEnv() });
  const output = `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (result.status !== 0) throw new Error(output || `exit ${result.status}`);
  return output;
}

/** The folder's node_modules pointing at `modules` while `work` runs (the lint and tsc resolve imports from the package). */
export async function withModules<T>(folder: string, modules: string, work: () => Promise<T> | T): Promise<T> {
  const link = join(folder, 'node_modules');
  rmSync(link, { recursive: true, force: true });
  symlinkSync(modules, link);
  try {
    return await work();
  } finally {
    rmSync(link, { force: true });
  }
}

/**
 * `n8n-node lint` in the package folder. It exits 0 on warnings; any finding, warning or
 * error, is thrown here, with the lint's report.
 */
export function lintPackage(folder: string): Promise<string> {
  return withModules(folder, join(toolsDir(), 'node_modules'), () => {
    const output = run(process.execPath, [join(toolsDir(), 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint'], folder);
    if (output.split('\n').some((line) => /\b(warning|error)\b|problems?/i.test(line))) throw new Error(output);
    return output;
  });
}

/** The tarball npm would publish, unpacked into a scratch folder (what the scanner downloads from npm). */
export function packPackage(folder: string): { dir: string; tarball: string; files: number; bytes: number; remove: () => void } {
  const packed = mkdtempSync(join(tmpdir(), 'n8n-pack-'));
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packed], folder)) as {
    filename: string;
    size: number;
    entryCount: number;
  }[];
  const dir = join(packed, 'package');
  mkdirSync(dir);
  run('tar', ['-xzf', join(packed, info!.filename), '-C', dir, '--strip-components=1'], packed);
  return { dir, tarball: info!.filename, files: info!.entryCount, bytes: info!.size, remove: () => rmSync(packed, { recursive: true, force: true }) };
}

interface ScanResult {
  passed: boolean;
  message?: string;
  details?: string;
}

/** The scanner's legs, as it runs them on a published package: the sources, then the tarball's JavaScript. */
export type ScanLeg = 'sources' | 'tarball';

/**
 * `@n8n/scan-community-package`'s analysis of one leg, in a process of its own (see toolEnv);
 * throws its report when it finds anything.
 */
export function scanPackage(folder: string, leg: ScanLeg): void {
  const scanner = pathToFileURL(join(toolsDir(), 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href;
  const script = `
    const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(${JSON.stringify(scanner)});
    const patterns = ${JSON.stringify(leg)} === 'sources' ? SOURCE_FILE_PATTERNS : ['**/*.js', 'package.json'];
    process.stdout.write(JSON.stringify(await analyzePackage(${JSON.stringify(folder)}, patterns)));`;
  const output = run(process.execPath, ['--input-type=module', '-e', script], folder);
  const result = JSON.parse(output.slice(output.indexOf('{'))) as ScanResult;
  if (!result.passed) throw new Error(`${result.message ?? 'failed'}\n${result.details ?? ''}`);
}

/**
 * The package's sources compiled on their own, with the package's tsconfig, as `n8n-node build`
 * runs tsc, against the project's n8n-workflow (the version n8n ships); the output goes to a
 * scratch folder, so the package's dist/ stays the build's.
 */
export function compilePackage(folder: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'n8n-tsc-'));
  return withModules(folder, join(repoRoot, 'node_modules'), () => {
    try {
      return run(
        process.execPath,
        [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', out, '--incremental', 'false'],
        folder,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
}
