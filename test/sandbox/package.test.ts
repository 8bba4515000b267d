import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildClientPackage } from '../../client/build-client-package.ts';
import { installIntoEmptyFolder, pack, runIn, type Packed } from '../../packaging/install.ts';
import { installNode24, nodeRuntimes } from '../../packaging/runtimes.ts';
import { checkExamples, checkInProcess, checkSandboxCommand, SANDBOX_INSTALLED_MAX_KIB, sandboxInstall } from '../../packaging/sandbox-package-checks.ts';
import { buildSandboxPackage, CONSOLE_ASSETS_MODULE, type BuiltSandboxPackage } from '../../sandbox/package/build-sandbox-package.ts';

/**
 * `@pagerly/sandbox` from its tarball, in an empty folder, as its users get it: `npx
 * pagerly-sandbox --port 0` prints a loopback base that answers allteams with a demo key and
 * stops on SIGTERM and Ctrl-C; `createSandbox` runs in process; the example tests that
 * docs/sandbox.md shows pass under Node's test runner and jest (npm run smoke runs all of it on
 * Node 22 and Node 24, with arethetypeswrong).
 */
let scratch: string;
let built: BuiltSandboxPackage;
let sandboxTarball: Packed;
let consumer: string;
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagerly-sandbox-package-'));
  installNode24();
  built = await buildSandboxPackage(join(scratch, 'sandbox'));
  await buildClientPackage(join(scratch, 'client'));
  sandboxTarball = pack(built.folder, scratch);
  consumer = installIntoEmptyFolder([sandboxTarball.tarball, pack(join(scratch, 'client'), scratch).tarball]);
}, 180_000);
afterAll(() => {
  for (const folder of [scratch, consumer]) if (folder) rmSync(folder, { recursive: true, force: true });
});

const read = (path: string) => readFileSync(join(built.folder, path), 'utf8');
const [node22, node24] = nodeRuntimes() as [ReturnType<typeof nodeRuntimes>[0], ReturnType<typeof nodeRuntimes>[0]];

describe('the sandbox package', () => {
  it('is an ES module with its declarations and a bin, through an exports map, with nothing to install', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg).toMatchObject({
      name: '@pagerly/sandbox',
      license: 'MIT',
      type: 'module',
      bin: { 'pagerly-sandbox': 'bin/pagerly-sandbox.js' },
      exports: { '.': { types: './types/index.d.ts', import: './lib/index.js' } },
      engines: { node: '>=22' },
    });
    expect(pkg.dependencies).toBeUndefined();
    expect(read('bin/pagerly-sandbox.js')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(sandboxTarball.files).toEqual(expect.arrayContaining(['bin/pagerly-sandbox.js', 'lib/index.js', 'types/index.d.ts', 'seeds/demo.json', 'LICENSE']));
  });

  it('declares createSandbox and what it returns, importing nothing: a consumer needs neither Fastify nor zod', () => {
    const types = read('types/index.d.ts');
    expect(types).toContain('export declare function createSandbox(options?: SandboxOptions): Promise<Sandbox>;');
    expect(types).toMatch(/listen\(options\?: \{[^}]*port\?: number/);
    expect(types).not.toMatch(/\bimport\b|\bfrom\s*['"]/);
  });

  it('passes publint --strict', () => {
    const output = execFileSync(join(process.cwd(), 'node_modules/.bin/publint'), ['--strict'], { cwd: built.folder, encoding: 'utf8' });
    expect(output).toContain('All good!');
  });

  it('carries the MIT licence it declares and the notice of every package bundled into it', () => {
    const licence = read('LICENSE');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Pagerly\n/);
    expect(built.bundled.map((p) => p.name)).toEqual(expect.arrayContaining(['fastify', 'zod', 'pino']));
    for (const { name, version } of built.bundled) expect(licence).toContain(`## ${name} ${version} (`);
    expect(readFileSync(join(process.cwd(), 'node_modules/fastify/LICENSE'), 'utf8').trim().length).toBeGreaterThan(100);
    expect(licence).toContain(readFileSync(join(process.cwd(), 'node_modules/fastify/LICENSE'), 'utf8').trim());
  });

  it(`installs from its tarball alone as one package in at most ${SANDBOX_INSTALLED_MAX_KIB / 1024} MB, and a nodenext consumer type-checks`, async () => {
    const install = await sandboxInstall(sandboxTarball.tarball);
    expect(install.problem).toBeUndefined();
    expect(install.packages).toEqual(['@pagerly/sandbox']);
    expect(install.kib).toBeLessThanOrEqual(SANDBOX_INSTALLED_MAX_KIB);
  }, 120_000);

  it.each([
    [node22.name, 'npx, SIGTERM to npx', node22],
    [node22.name, 'npx, Ctrl-C', node22],
    [node22.name, 'bin, SIGTERM', node22],
    [node24.name, 'npx, SIGTERM to npx', node24],
  ] as const)(
    '%s: pagerly-sandbox --port 0 answers allteams on loopback with the key it prints, and stops (%s)',
    async (_name, how, runtime) => {
      const checked = await checkSandboxCommand(consumer, dirname(runtime.command), how);
      expect(checked.problem).toBeUndefined();
      // Stopped: nothing answers there any more.
      await expect(fetch(`${checked.base}/pagerly/o/zapier/allteams`)).rejects.toThrow();
    },
    60_000,
  );

  it("says npx @pagerly/sandbox in its help, not the checkout's npm run sandbox", async () => {
    const run = await runIn(consumer, join(consumer, 'node_modules/.bin/pagerly-sandbox'), ['--help'], {}, { nodeDir: dirname(node22.command) });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npx @pagerly\/sandbox \[--port N\]/);
    expect(run.stdout).not.toContain('npm run sandbox');
  });

  it.each([node22, node24])(
    '$name: import { createSandbox } runs a sandbox in process',
    async (runtime) => {
      expect(await checkInProcess(consumer, runtime)).toBeUndefined();
    },
    60_000,
  );

  it("runs the example tests of docs/sandbox.md (sandbox/examples/) under Node's test runner and jest", async () => {
    expect(await checkExamples(consumer, node22)).toBeUndefined();
  }, 120_000);
});

describe("the console's assets", () => {
  it('go into console/ and the files npm packs when the console module is there, written by its buildConsoleAssets', async () => {
    // A stand-in of sandbox/console/build-assets.ts with the same export.
    const module = join(scratch, 'build-assets.mjs');
    writeFileSync(
      module,
      `import { mkdirSync, writeFileSync } from 'node:fs';
export async function buildConsoleAssets(outDir) { mkdirSync(outDir, { recursive: true }); writeFileSync(outDir + '/index.html', '<!doctype html><title>console</title>'); }
`,
    );
    const withConsole = await buildSandboxPackage(join(scratch, 'with-console'), { consoleAssets: pathToFileURL(module) });
    expect(withConsole.console).toBe(true);
    expect(readdirSync(join(withConsole.folder, 'console'))).toEqual(['index.html']);
    const packed = pack(withConsole.folder, mkdtempSync(join(scratch, 'packed-')));
    expect(packed.files).toContain('console/index.html');
  }, 60_000);

  it("are looked for at sandbox/console/build-assets.ts, the console's module", () => {
    expect(CONSOLE_ASSETS_MODULE.pathname.endsWith('/sandbox/console/build-assets.ts')).toBe(true);
  });
});
