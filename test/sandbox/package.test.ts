import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { ENV } from '../../cli/settings.ts';
import { buildClientPackage } from '../../client/build-client-package.ts';
import { installIntoEmptyFolder, pack, runIn, type Packed } from '../../packaging/install.ts';
import { installNode24, nodeRuntimes } from '../../packaging/runtimes.ts';
import {
  checkExamples,
  checkInProcess,
  checkSandboxCommand,
  SANDBOX_EXAMPLES,
  SANDBOX_INSTALLED_MAX_KIB,
  sandboxInstall,
} from '../../packaging/sandbox-package-checks.ts';
import { demoKeys } from '../../sandbox/index.ts';
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
      exports: { '.': { types: './types/index.d.ts', import: './lib/index.js', default: './lib/index.js' } },
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
    expect(built.bundled.map((p) => p.name)).toEqual(expect.arrayContaining(['fastify', 'zod', 'pino', 'eventsource-parser']));
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
    [node22.name, 'npx -y <tarball>, SIGTERM to npx', node22],
  ] as const)(
    '%s: pagerly-sandbox --port 0 answers allteams on loopback with the key it prints, and stops (%s)',
    async (_name, how, runtime) => {
      const checked = await checkSandboxCommand(consumer, dirname(runtime.command), how, sandboxTarball.tarball);
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
    '$name: import { createSandbox } runs a sandbox in process, and require() finds it',
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
export async function buildConsoleAssets(outDir) { mkdirSync(outDir, { recursive: true }); writeFileSync(outDir + '/index.html', '<!doctype html><title>console</title>'); return []; }
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

describe('docs/sandbox.md', () => {
  const page = readFileSync(join(process.cwd(), 'docs/sandbox.md'), 'utf8');
  const job = /```yaml\n(name: Test against the Pagerly sandbox\n[\s\S]*?)```/.exec(page)?.[1] ?? '';
  type Step = { name?: string; run?: string; env?: Record<string, string> };
  const steps = () => (parse(job) as { jobs: { test: { steps: Step[] } } }).jobs.test.steps;

  it.each(readdirSync(SANDBOX_EXAMPLES))('shows sandbox/examples/%s as it is, the file the tests run', (name) => {
    expect(page).toContain(`\`sandbox/examples/${name}\`:\n\n\`\`\`js\n${readFileSync(join(SANDBOX_EXAMPLES, name), 'utf8')}\`\`\``);
  });

  it("shows a GitHub Actions job that action-validator accepts, with the CLI's variables and a demo key", async () => {
    expect(job).not.toBe('');
    const file = join(scratch, 'sandbox-ci.yml');
    writeFileSync(file, job);
    await expect(promisify(execFile)(join(process.cwd(), 'node_modules/.bin/action-validator'), [file])).resolves.toBeDefined();
    const tests = steps().find((step) => step.env?.[ENV.baseUrl]);
    expect(tests?.env).toEqual({ [ENV.baseUrl]: 'http://127.0.0.1:4010', [ENV.apiKey]: demoKeys.acmeAdmin });
  });

  it('has a start step that, where the package is installed, leaves the sandbox answering and exits 0', async () => {
    const startStep = steps().find((step) => step.name === 'Start the Pagerly sandbox')?.run ?? '';
    expect(startStep).toMatch(/^npx -y @pagerly\/sandbox --port 4010 /);
    // The port the OS gives, for the job's 4010; npx finds the package installed in the folder, as it would in a project that lists it.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const script = startStep.replaceAll('4010', String(port));
    const shell = spawn('bash', ['-e', '-c', script], {
      cwd: consumer,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, PATH: `${dirname(node22.command)}:${process.env.PATH}` },
    });
    try {
      const code = await new Promise<number | null>((resolve) => shell.on('exit', resolve));
      expect(code).toBe(0);
      const teams = await fetch(`http://127.0.0.1:${port}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': demoKeys.acmeAdmin } });
      expect(teams.status).toBe(200);
    } finally {
      // What the runner does at the job's end: stop what the step left running (then make sure).
      const alive = () => {
        try {
          process.kill(-shell.pid!, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(-shell.pid!, 'SIGTERM');
      for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (alive()) process.kill(-shell.pid!, 'SIGKILL');
    }
    await expect(fetch(`http://127.0.0.1:${port}/_sandbox/clock`)).rejects.toThrow();
  }, 60_000);
});
