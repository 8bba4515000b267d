// `npm run n8n:check`: the built package (dist/n8n/) through n8n's own tools, offline:
// `n8n-node lint` (no error and no warning), the static analysis of
// `@n8n/scan-community-package` on the sources and on the tarball `npm pack` makes of the
// package, and a compile of the package's sources on their own, as `n8n-node build` compiles
// them, against the real n8n-workflow types. Exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { n8nPackageDir } from '../build-n8n-app.ts';
import { paths } from '../generator/package-files.ts';
import { ensureTools, repoRoot, toolsDir } from '../engine/cache.ts';

interface ScanResult {
  passed: boolean;
  message?: string;
  details?: string;
}
type Analyze = (folder: string, patterns: string[]) => Promise<ScanResult>;

const outcomes: { name: string; ok: boolean; seconds: number; detail: string }[] = [];
async function step(name: string, work: () => Promise<string> | string): Promise<void> {
  const started = performance.now();
  try {
    const detail = await work();
    outcomes.push({ name, ok: true, seconds: (performance.now() - started) / 1000, detail });
  } catch (error) {
    outcomes.push({ name, ok: false, seconds: (performance.now() - started) / 1000, detail: (error as Error).message });
  }
  const last = outcomes.at(-1)!;
  console.log(`${last.ok ? '✔' : '✘'} ${name}  ${last.seconds.toFixed(1)} s${last.detail ? `\n${last.detail.replace(/^/gm, '    ')}` : ''}`);
}

function run(command: string, args: string[], cwd = n8nPackageDir): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const output = `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (result.status !== 0) throw new Error(output || `exit ${result.status}`);
  return output;
}

/** n8n's lint passes with exit 0 on warnings; a finding of any kind fails the check. */
function noFindings(output: string): string {
  const findings = output.split('\n').filter((line) => /\b(warning|error)\b|problems?/i.test(line));
  if (findings.length > 0) throw new Error(output);
  return '';
}

if (!existsSync(join(n8nPackageDir, paths.actionJs))) {
  console.error('dist/n8n/ is not built: run npm run build first.');
  process.exit(1);
}

const tools = ensureTools();
console.log(`n8n tools in ${toolsDir()}: ${tools.reused ? 'reused' : `installed in ${tools.seconds.toFixed(0)} s`}`);

// The lint resolves imports (n8n-workflow, @n8n/node-cli's config) from the package folder.
const link = join(n8nPackageDir, 'node_modules');
rmSync(link, { recursive: true, force: true });
symlinkSync(join(toolsDir(), 'node_modules'), link);
try {
  await step('n8n-node lint (@n8n/node-cli): no errors, no warnings', () =>
    noFindings(run(process.execPath, [join(toolsDir(), 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint'])),
  );

  // The tarball npm would publish, unpacked: what the scanner downloads from npm and lints.
  const packed = mkdtempSync(join(tmpdir(), 'n8n-pack-'));
  const tarballDir = join(packed, 'package');
  await step('npm pack', () => {
    const [info] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packed])) as {
      filename: string;
      size: number;
      entryCount: number;
    }[];
    mkdirSync(tarballDir);
    run('tar', ['-xzf', join(packed, info!.filename), '-C', tarballDir, '--strip-components=1']);
    return `${info!.filename}: ${info!.entryCount} files, ${(info!.size / 1024).toFixed(1)} KB`;
  });

  const scanner = pathToFileURL(join(toolsDir(), 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href;
  const { analyzePackage, SOURCE_FILE_PATTERNS } = (await import(scanner)) as { analyzePackage: Analyze; SOURCE_FILE_PATTERNS: string[] };
  // The scanner's two legs, as it runs them on a published package: the sources, then the
  // shipped JavaScript. Its provenance check needs npm's registry and a published version.
  for (const [leg, folder, patterns] of [
    ['sources', n8nPackageDir, SOURCE_FILE_PATTERNS],
    ['the packed tarball', tarballDir, ['**/*.js', 'package.json']],
  ] as const) {
    await step(`scan-community-package: ${leg}`, async () => {
      const result = await analyzePackage(folder, [...patterns]);
      if (!result.passed) throw new Error(`${result.message ?? 'failed'}\n${result.details ?? ''}`);
      return '';
    });
  }

  rmSync(packed, { recursive: true, force: true });

  // The package's own tsconfig, as `n8n-node build` runs tsc, with n8n-workflow's types from
  // the project's copy (the version n8n ships); written to a scratch folder, so dist/ stays ours.
  rmSync(link, { force: true });
  symlinkSync(join(repoRoot, 'node_modules'), link);
  await step("tsc: the package's sources on their own, against n8n-workflow's types", () =>
    run(process.execPath, [
      join(repoRoot, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.json',
      '--outDir',
      join(tmpdir(), 'n8n-tsc-out'),
      '--incremental',
      'false',
    ]),
  );
} finally {
  rmSync(link, { force: true });
}

const failed = outcomes.filter((o) => !o.ok);
console.log(failed.length ? `${failed.length} of ${outcomes.length} checks failed.` : `All ${outcomes.length} checks passed.`);
process.exitCode = failed.length ? 1 : 0;
