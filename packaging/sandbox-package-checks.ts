import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeConsumerTsconfig } from './client-install-size.ts';
import { cleanEnv, installIntoEmptyFolder, runIn, writeInto, type Ran } from './install.ts';
import type { Runtime } from './runtimes.ts';

/**
 * `@pagerly/sandbox` as its users get it, from its tarball in an empty folder: the command
 * (`npx pagerly-sandbox`), the in-process sandbox (`createSandbox`), its types and the example
 * tests the docs show. Used by npm run smoke and test/sandbox/package.test.ts.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
export const SANDBOX_EXAMPLES = fileURLToPath(new URL('../sandbox/examples/', import.meta.url));

/**
 * Everything bundled, nothing to resolve: installed alone it is one package, at most this
 * much as `du -sk node_modules` counts it (KiB).
 */
export const SANDBOX_INSTALLED_MAX_KIB = 3 * 1024;

const ran = (run: Ran) => `exit ${run.code}\n${run.stderr.trim()}\n${run.stdout.slice(0, 600)}`.trim();
const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;

/** A consumer's first lines with the sandbox, compiled with `module: nodenext` and the package's declarations checked. */
const CONSUMER = `import { createSandbox, demoKeys, type Sandbox, type SandboxOptions, type SandboxSeed, type DeliveryAttempt } from '@pagerly/sandbox';
const options: SandboxOptions = { clock: { mode: 'fixed' }, rateLimit: false, delivery: { retryDelaysMs: [10] } };
const sandbox: Sandbox = await createSandbox(options);
export const base: string = await sandbox.listen({ port: 0 });
export const key: string = demoKeys.acmeAdmin;
await sandbox.clock.advance(3_600_000);
export const now: Date = sandbox.clock.now();
sandbox.faults.inject({ path: '/o/incident', status: 503, body: '{}', times: 2 });
export const attempts: readonly DeliveryAttempt[] = sandbox.deliveries.log;
await sandbox.close();
export const seed: SandboxSeed = { clockStart: '2026-11-02T08:00:00Z', organizations: [] };
// @ts-expect-error: a clock mode the sandbox does not have is refused by the types.
await createSandbox({ clock: { mode: 'frozen' } });
`;

export interface SandboxInstall {
  /** `du -sk node_modules`, in KiB. */
  readonly kib: number;
  readonly packages: readonly string[];
  readonly problem: string | undefined;
}

/** Installs the tarball alone into an empty folder, measures it and type-checks a consumer; the folder is removed after. */
export async function sandboxInstall(tarball: string): Promise<SandboxInstall> {
  const folder = installIntoEmptyFolder([tarball]);
  try {
    const modules = join(folder, 'node_modules');
    const kib = Number(execFileSync('du', ['-sk', modules], { encoding: 'utf8' }).split(/\s/)[0]);
    const packages = readdirSync(modules)
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
    const problems: string[] = [];
    if (!(kib <= SANDBOX_INSTALLED_MAX_KIB)) problems.push(`it installs ${mb(kib)}, more than ${mb(SANDBOX_INSTALLED_MAX_KIB)}`);
    if (packages.join() !== '@pagerly/sandbox') problems.push(`it installs more than itself: ${packages.join(', ')}`);
    const types = await typeCheckConsumer(folder);
    if (types) problems.push(types);
    return { kib, packages, problem: problems.length ? problems.join('\n') : undefined };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** For npm run smoke's `step`: prints what it measured; returns the problem, if any. */
export async function sandboxInstallsAlone(tarball: string): Promise<string | undefined> {
  const install = await sandboxInstall(tarball);
  console.log(`  installed alone: ${mb(install.kib)} (du -sk node_modules: ${install.kib} KiB; ${install.packages.join(', ')})`);
  return install.problem;
}

/** A nodenext consumer, the package's declarations checked too, compiles against it. */
export async function typeCheckConsumer(folder: string): Promise<string | undefined> {
  writeConsumerTsconfig(folder, root);
  writeInto(folder, 'typed.ts', CONSUMER);
  const tsc = await runIn(folder, process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {});
  return tsc.code === 0 ? undefined : `a nodenext consumer does not type-check against it:\n${tsc.stdout}${tsc.stderr}`.trim();
}

interface Started {
  readonly pid: number;
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (null when ended by a signal) once the process itself has ended. */
  readonly exited: Promise<number | null>;
}

/** A long-running command in its own process group (as a terminal runs it), with a clean environment. */
function start(cwd: string, command: string, args: readonly string[], nodeDir: string | undefined): Started {
  const child = spawn(command, [...args], { cwd, env: cleanEnv({}, nodeDir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { pid: child.pid!, output: () => ({ stdout, stderr }), exited };
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = what();
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * How the command is started and stopped: through npx where the package is installed, stopped
 * by a SIGTERM to npx (what a CI step's `kill $!` or a supervisor sends) or by Ctrl-C (SIGINT to
 * the whole process group, as a terminal sends it); the installed bin itself, stopped by
 * SIGTERM, whose exit code npx would hide; or `npx -y <the tarball>` in an empty folder, as
 * `npx -y @pagerly/sandbox` runs the package's one bin from npm.
 */
export type CommandRun = 'npx, SIGTERM to npx' | 'npx, Ctrl-C' | 'bin, SIGTERM' | 'npx -y <tarball>, SIGTERM to npx';

export interface CommandCheck {
  /** The API base the command printed. */
  readonly base: string;
  readonly problem: string | undefined;
}

/** The status of a GET sent with these headers, Host included (fetch sends its own Host). */
function statusFor(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

/**
 * `npx pagerly-sandbox --port 0` in the consumer folder (or its bin), on the Node in `nodeDir`:
 * it prints a loopback base, the demo keys and the console's address; the rotations base
 * answers `allteams` with the printed admin key, and refuses another key with 400, as the spec
 * says, and a Host that does not name it with 403; then the signal stops it, leaving no
 * process of its group behind (the bin itself exits 0). Killed on every path.
 */
export async function checkSandboxCommand(consumer: string, nodeDir: string | undefined, how: CommandRun, tarball?: string): Promise<CommandCheck> {
  const empty = how === 'npx -y <tarball>, SIGTERM to npx' ? mkdtempSync(join(tmpdir(), 'pagerly-npx-')) : undefined;
  if (empty && !tarball) throw new Error(`${how} needs the tarball`);
  const [command, ...args] = empty
    ? ['npx', '-y', `file:${tarball}`, '--port', '0']
    : how.startsWith('npx')
      ? ['npx', '--no-install', 'pagerly-sandbox', '--port', '0']
      : [join(consumer, 'node_modules', '.bin', 'pagerly-sandbox'), '--port', '0'];
  const running = start(empty ?? consumer, command!, args, nodeDir);
  let base = '';
  try {
    const banner = await until(() => {
      const { stdout } = running.output();
      return /Ctrl-C stops it/.test(stdout) ? stdout : undefined;
    }, 30_000);
    const { stdout, stderr } = running.output();
    if (banner === undefined) return { base, problem: `no start-up banner in 30 s:\n${stderr}\n${stdout}`.trim() };
    base = /API base URL:\s+(\S+)/.exec(banner)?.[1] ?? '';
    const key = /admin \([^)]*\):\s+(\S+)/.exec(banner)?.[1];
    const consoleAt = /Console:\s+(\S+)/.exec(banner)?.[1];
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) return { base, problem: `the base is not on loopback: "${base}"\n${banner}` };
    if (key === undefined) return { base, problem: `no admin key in the banner:\n${banner}` };
    if (consoleAt !== `${base}/`) return { base, problem: `the console's address is "${consoleAt}", not ${base}/` };
    const teams = await fetch(`${base}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': key } });
    const body = (await teams.json()) as { name?: unknown }[];
    if (teams.status !== 200 || !body.some((team) => team.name === 'Platform'))
      return { base, problem: `allteams answered ${teams.status}: ${JSON.stringify(body)}` };
    const refused = await fetch(`${base}/pagerly/o/zapier/allteams`, { headers: { 'X-APIKEY': 'not-a-key-of-this-sandbox' } });
    await refused.body?.cancel();
    if (refused.status !== 400) return { base, problem: `an unknown key got ${refused.status}, not 400` };
    // A page whose own domain points here (DNS rebinding) names that domain in Host: refused.
    const rebound = await statusFor(`${base}/pagerly/o/zapier/allteams`, { 'X-APIKEY': key, host: `rebinding.example:${new URL(base).port}` });
    if (rebound !== 403) return { base, problem: `a request with Host rebinding.example got ${rebound}, not 403` };
    const manifest = join(consumer, 'node_modules', '@pagerly', 'sandbox', 'package.json');
    const installed = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { files: string[] }) : { files: [] };
    if (installed.files.includes('console')) {
      // The package carries the console's assets: the address printed must serve them.
      const page = await fetch(consoleAt);
      await page.body?.cancel();
      if (page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html'))
        return { base, problem: `the console at ${consoleAt} answered ${page.status} ${page.headers.get('content-type')}, not an HTML page` };
    }
    const signal = how === 'npx, Ctrl-C' ? 'SIGINT' : 'SIGTERM';
    process.kill(how === 'npx, Ctrl-C' ? -running.pid : running.pid, signal);
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([running.exited, new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), 15_000)))]);
    clearTimeout(timer);
    if (how === 'bin, SIGTERM' && code !== 0) return { base, problem: `after SIGTERM the bin ended with ${code}, not exit 0:\n${running.output().stderr}` };
    const gone = await until(() => (groupAlive(running.pid) ? undefined : true), 15_000);
    if (!gone) return { base, problem: `after ${signal}, a process of the sandbox is still running:\n${running.output().stdout.slice(-300)}` };
    const said = running.output().stdout.slice(banner.length);
    return { base, problem: said.includes(signal) ? undefined : `it did not say it was stopping on ${signal}: ${said}` };
  } finally {
    if (groupAlive(running.pid)) process.kill(-running.pid, 'SIGKILL');
    if (empty) rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * `import { createSandbox } from '@pagerly/sandbox'` on a runtime: serve, answer, move the
 * clock, close; and `require` of it from CommonJS (Node 22.12 and later load an ES module so).
 */
export async function checkInProcess(consumer: string, runtime: Runtime): Promise<string | undefined> {
  writeInto(
    consumer,
    'in-process.mjs',
    `import { createSandbox, demoKeys } from '@pagerly/sandbox';
const sandbox = await createSandbox();
try {
  const base = await sandbox.listen({ port: 0 });
  const answer = await fetch(base + '/pagerly/o/zapier/allteams', { headers: { 'X-APIKEY': demoKeys.acmeAdmin } });
  const teams = await answer.json();
  await sandbox.clock.advance(3_600_000);
  console.log(JSON.stringify({ base, status: answer.status, teams: teams.map((team) => team.name), now: sandbox.clock.now().toISOString(), node: process.version }));
} finally {
  await sandbox.close();
}
`,
  );
  writeInto(consumer, 'required.cjs', `const { createSandbox } = require('@pagerly/sandbox');\nconsole.log(typeof createSandbox);\n`);
  const required = await runIn(consumer, runtime.command, [...runtime.args, 'required.cjs'], {});
  if (required.code !== 0 || required.stdout.trim() !== 'function') return `require('@pagerly/sandbox') from CommonJS: ${ran(required)}`;
  const run = await runIn(consumer, runtime.command, [...runtime.args, 'in-process.mjs'], {});
  if (run.code !== 0) return ran(run);
  const seen = JSON.parse(run.stdout) as { base: string; status: number; teams: string[]; now: string; node: string };
  const expected = { status: 200, teams: ['Platform', 'Payments', 'Mobile'], now: '2026-11-02T09:00:00.000Z' };
  if (JSON.stringify({ status: seen.status, teams: seen.teams, now: seen.now }) !== JSON.stringify(expected)) return `unexpected: ${run.stdout}`;
  if (!seen.base.startsWith('http://127.0.0.1:')) return `not on loopback: ${seen.base}`;
  return seen.node.startsWith(`v${runtime.name.split(' ')[1]}.`) ? undefined : `ran on ${seen.node}`;
}

/**
 * The example tests docs/sandbox.md shows (sandbox/examples/), copied into the consumer (which
 * has @pagerly/client installed too) and run there as a user runs them: Node's test runner,
 * and jest (the checkout's) with ES modules.
 */
export async function checkExamples(consumer: string, runtime: Runtime): Promise<string | undefined> {
  for (const name of readdirSync(SANDBOX_EXAMPLES)) copyFileSync(join(SANDBOX_EXAMPLES, name), join(consumer, name));
  const nodeTest = await runIn(consumer, runtime.command, ['--test', 'node-test-runner.test.mjs'], {}, { timeoutMs: 60_000 });
  if (nodeTest.code !== 0 || !/\bpass 3\b/.test(nodeTest.stdout)) return `node --test node-test-runner.test.mjs: ${ran(nodeTest)}`;
  const config = JSON.stringify({ rootDir: consumer, testMatch: ['<rootDir>/jest.test.mjs'], transform: {}, testEnvironment: 'node' });
  const jest = await runIn(
    consumer,
    runtime.command,
    ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', config, '--ci'],
    {},
    { timeoutMs: 90_000 },
  );
  if (jest.code !== 0 || !/Tests:\s+3 passed, 3 total/.test(jest.stderr)) return `jest jest.test.mjs: ${ran(jest)}`;
  return undefined;
}
