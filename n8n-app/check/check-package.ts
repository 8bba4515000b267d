// `npm run n8n:check`: the built package (dist/n8n/) through n8n's own tools, offline:
// `n8n-node lint`, the static analysis of `@n8n/scan-community-package`, and a compile of the
// generated sources against the real n8n-workflow types. Exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
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

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: n8nPackageDir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const output = `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (result.status !== 0) throw new Error(output || `exit ${result.status}`);
  return output
    .split('\n')
    .filter((line) => /warning|problems?/i.test(line))
    .join('\n');
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
  await step('n8n-node lint (@n8n/node-cli)', () => run(process.execPath, [join(toolsDir(), 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint']));

  const scanner = pathToFileURL(join(toolsDir(), 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href;
  const { analyzePackage, SOURCE_FILE_PATTERNS } = (await import(scanner)) as { analyzePackage: Analyze; SOURCE_FILE_PATTERNS: string[] };
  // The scanner's two legs, as it runs them on a published package: the sources, then the
  // shipped JavaScript. Its provenance check needs npm's registry and a published version.
  for (const [leg, patterns] of [
    ['sources', SOURCE_FILE_PATTERNS],
    ['shipped JavaScript', ['**/*.js', 'package.json']],
  ] as const) {
    await step(`scan-community-package: ${leg}`, async () => {
      const result = await analyzePackage(n8nPackageDir, [...patterns]);
      if (!result.passed) throw new Error(`${result.message ?? 'failed'}\n${result.details ?? ''}`);
      return '';
    });
  }

  // The runtime the sources import takes its types from the project's n8n-workflow (the version
  // n8n ships): the sources must see the same copy, or each type would be two types.
  rmSync(link, { force: true });
  symlinkSync(join(repoRoot, 'node_modules'), link);
  await step("tsc: the generated sources against n8n-workflow's own types", () =>
    run(process.execPath, [
      join(repoRoot, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'es2024',
      '--lib',
      'es2024',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--allowImportingTsExtensions',
      '--resolveJsonModule',
      '--typeRoots',
      join(repoRoot, 'node_modules/@types'),
      '--types',
      'node',
      paths.actionSource,
      paths.triggerSource,
      paths.credentialSource,
    ]),
  );
} finally {
  rmSync(link, { force: true });
}

const failed = outcomes.filter((o) => !o.ok);
console.log(failed.length ? `${failed.length} of ${outcomes.length} checks failed.` : `All ${outcomes.length} checks passed.`);
process.exitCode = failed.length ? 1 : 0;
