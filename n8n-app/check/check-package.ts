// `npm run n8n:check`: the built package (dist/n8n/) through n8n's own tools, offline:
// `n8n-node lint` (no error and no warning), the static analysis of
// `@n8n/scan-community-package` on the sources and on the tarball `npm pack` makes of the
// package, and a compile of the package's sources on their own, as `n8n-node build` compiles
// them, against the real n8n-workflow types. Exits 1 on any failure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { n8nPackageDir } from '../build-n8n-app.ts';
import { ensureTools, toolsDir } from '../engine/cache.ts';
import { paths } from '../generator/package-files.ts';
import { compilePackage, lintPackage, packPackage, scanPackage } from './package-tools.ts';

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

if (!existsSync(join(n8nPackageDir, paths.actionJs))) {
  console.error('dist/n8n/ is not built: run npm run build first.');
  process.exit(1);
}

const tools = ensureTools();
console.log(`n8n tools in ${toolsDir()}: ${tools.reused ? 'reused' : `installed in ${tools.seconds.toFixed(0)} s`}`);

await step('n8n-node lint (@n8n/node-cli): no errors, no warnings', async () => {
  await lintPackage(n8nPackageDir);
  return '';
});
let packed: ReturnType<typeof packPackage> | undefined;
await step('npm pack', () => {
  packed = packPackage(n8nPackageDir);
  return `${packed.tarball}: ${packed.files} files, ${(packed.bytes / 1024).toFixed(1)} KB`;
});
await step('scan-community-package: sources', () => {
  scanPackage(n8nPackageDir, 'sources');
  return '';
});
await step('scan-community-package: the packed tarball', () => {
  if (!packed) throw new Error('nothing was packed');
  scanPackage(packed.dir, 'tarball');
  return '';
});
packed?.remove();
await step("tsc: the package's sources on their own, against n8n-workflow's types", async () => {
  await compilePackage(n8nPackageDir);
  return '';
});

const failed = outcomes.filter((o) => !o.ok);
console.log(failed.length ? `${failed.length} of ${outcomes.length} checks failed.` : `All ${outcomes.length} checks passed.`);
process.exitCode = failed.length ? 1 : 0;
