// `npm run smoke`: the npm packages as users get them. Builds dist/cli and dist/client, packs
// each, checks what each tarball holds (publint and arethetypeswrong on the client), installs
// both into an empty folder and, against a sandbox started here (loopback only), runs from
// there: `pagerly on-call --team` and `pagerly mcp` under the MCP Inspector's `--cli tools/list`
// on Node 22 and Node 24, each also through a loopback proxy (HTTP_PROXY) that must see the
// requests, and not with NO_PROXY, and through one that answers 407 (exit 78); the client imported by its name on Node 22, Node 24, Bun
// and Deno, listing the teams; a consumer with `module: nodenext` and no DOM lib type-checked
// against it. Node 24, Bun and Deno come from npm into .cache/runtimes/ (packaging/runtimes.ts).
// The sandbox package (dist/sandbox) too: its tarball's files, publint and arethetypeswrong,
// installed alone (one package, its size, a nodenext consumer), and on Node 22 and Node 24
// `npx pagerly-sandbox --port 0` answering allteams with the key it prints and stopping on
// SIGTERM and Ctrl-C, createSandbox imported in process, and the example tests docs/sandbox.md
// shows, under Node's test runner and jest (packaging/sandbox-package-checks.ts).
// One line per check with its time; exit 1 on any failure.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientInstallsLight, writeConsumerTsconfig } from '../packaging/client-install-size.ts';
import { loopbackProxy } from '../packaging/loopback-proxy.ts';
import { refusingProxy } from '../packaging/refusing-proxy.ts';
import { LOOPBACK_CERT, tlsFront } from '../packaging/tls-front.ts';
import { installIntoEmptyFolder, pack, runIn, scratch, writeInto, type Ran } from '../packaging/install.ts';
import { cliPackage, clientPackage, sandboxPackage } from '../packaging/packages.ts';
import { checkExamples, checkInProcess, checkSandboxCommand, sandboxInstallsAlone } from '../packaging/sandbox-package-checks.ts';
import { clientRuntimes, installRuntimes, nodeRuntimes } from '../packaging/runtimes.ts';
import { createSandbox, demoKeys } from '../sandbox/index.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const tool = (name: string) => join(root, 'node_modules', '.bin', name);
const failures: string[] = [];

function check(name: string, ms: number, problem: string | undefined) {
  console.log(`${problem ? '✘' : '✔'} ${name}  ${(ms / 1000).toFixed(1)} s${problem ? `\n  ${problem.replace(/\n/g, '\n  ')}` : ''}`);
  if (problem) failures.push(name);
}

/** A step that throws is a failure with its message, and the run goes on. */
async function step(name: string, body: () => Promise<string | undefined> | string | undefined) {
  const started = performance.now();
  let problem: string | undefined;
  try {
    problem = await body();
  } catch (error) {
    problem = (error as Error).message;
  }
  check(name, performance.now() - started, problem);
}

const ran = (run: Ran) => `exit ${run.code}\n${run.stderr.trim()}\n${run.stdout.slice(0, 400)}`.trim();

for (const pkg of [cliPackage, clientPackage, sandboxPackage]) await step(`build ${pkg.name}`, async () => void console.log(`  ${await pkg.build()}`));
// Nothing to pack without every package.
if (failures.length) process.exit(1);

const packs = scratch('pagerly-tarballs-');
const cli = pack(cliPackage.dir, packs);
const client = pack(clientPackage.dir, packs);
const sandboxTarball = pack(sandboxPackage.dir, packs);

await step(`${cliPackage.name} tarball holds only what runs: package.json, README.md, LICENSE, bin/, lib/*.js (${cli.files.length} files)`, () => {
  const stray = cli.files.filter((path) => !['package.json', 'README.md', 'LICENSE', 'bin/pagerly.js'].includes(path) && !/^lib\/[\w-]+\.js$/.test(path));
  return stray.length ? `unexpected files: ${stray.join(', ')}` : undefined;
});
await step(
  `${clientPackage.name} tarball holds index.js, its declarations, package.json, README.md, LICENSE and OPERATIONS.md (${client.files.length} files)`,
  () => {
    const stray = client.files.filter(
      (path) => !['package.json', 'README.md', 'LICENSE', 'OPERATIONS.md', 'index.js'].includes(path) && !/^types\/.+\.d\.ts$/.test(path),
    );
    return stray.length ? `unexpected files: ${stray.join(', ')}` : undefined;
  },
);
await step(
  `${sandboxPackage.name} tarball holds package.json, README.md, LICENSE, its bin, lib/*.js, its declarations, the seeds and the console (${sandboxTarball.files.length} files)`,
  () => {
    const stray = sandboxTarball.files.filter(
      (path) =>
        !['package.json', 'README.md', 'LICENSE', 'bin/pagerly-sandbox.js', 'types/index.d.ts'].includes(path) &&
        !/^(lib\/[\w-]+\.js|seeds\/[\w-]+\.json|console\/.+)$/.test(path),
    );
    return stray.length ? `unexpected files: ${stray.join(', ')}` : undefined;
  },
);
for (const pkg of [cliPackage, clientPackage, sandboxPackage]) {
  await step(`publint ${pkg.name}`, () => {
    const output = execFileSync(tool('publint'), ['--strict'], { cwd: pkg.dir, encoding: 'utf8' });
    return output.includes('All good!') ? undefined : output;
  });
}
// ESM only: CommonJS consumers import() it (Node 22 can also require() it), so the CommonJS resolutions are not checked.
await step(`attw --profile esm-only ${clientPackage.name}`, () => {
  execFileSync(tool('attw'), ['--profile', 'esm-only', '--format', 'ascii', client.tarball], { encoding: 'utf8' });
  return undefined;
});

await step(`attw --profile esm-only ${sandboxPackage.name}`, () => {
  execFileSync(tool('attw'), ['--profile', 'esm-only', '--format', 'ascii', sandboxTarball.tarball], { encoding: 'utf8' });
  return undefined;
});

await step(`${clientPackage.name} installs alone in at most 3.5 MB, without zod, types intact`, () => clientInstallsLight(client.tarball));
await step(`${sandboxPackage.name} installs alone as one package in at most 3 MB, a nodenext consumer type-checks`, () =>
  sandboxInstallsAlone(sandboxTarball.tarball),
);
await step('install Node 24, Bun and Deno from npm (cached)', () => {
  installRuntimes();
  return undefined;
});
const consumer = installIntoEmptyFolder([cli.tarball, client.tarball, sandboxTarball.tarball]);
console.log(`  installed into ${consumer}`);
const installedBin = join(consumer, 'node_modules', '.bin', 'pagerly');

await step('a consumer with module: nodenext and no DOM lib type-checks against the client', async () => {
  writeConsumerTsconfig(consumer, root);
  writeInto(
    consumer,
    'typed.ts',
    `import { createClient, RateLimitError, type PagerlyClient } from '@pagerly/client';
const pagerly: PagerlyClient = createClient({ apiKey: 'key', timeoutMs: 5_000 });
const teams: { id: string; name: string }[] = await pagerly.listTeams();
const people = await pagerly.listOnCallUsers({ teamname: teams[0]?.name ?? 'Platform' });
export const names: string[] = people.map((person) => person.name);
export const wait: number | undefined = new RateLimitError('slow down', 30).retryAfterSeconds;
`,
  );
  const run = await runIn(consumer, process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {});
  return run.code === 0 ? undefined : ran(run);
});

const sandbox = await createSandbox();
const url = await sandbox.listen();
const proxy = await loopbackProxy();
// A corporate proxy given wrong credentials: 407 to plain requests and to CONNECT.
const refusing = await refusingProxy();
// The sandbox over HTTPS, with a certificate only NODE_EXTRA_CA_CERTS makes trusted.
const https = await tlsFront(url);
const env = { PAGERLY_API_KEY: demoKeys.acmeAdmin, PAGERLY_BASE_URL: url };
const leaks = (run: Ran) => (`${run.stdout}${run.stderr}`.includes(demoKeys.acmeAdmin) ? 'the key is in the output' : undefined);

try {
  for (const runtime of nodeRuntimes()) {
    const nodeDir = dirname(runtime.command);
    const onCall = async (extra: Record<string, string>) =>
      runIn(consumer, installedBin, ['on-call', '--team', 'Payments', '--json'], { ...env, ...extra }, { nodeDir });
    const onCallOk = (run: Ran) => {
      if (run.code !== 0 || run.stderr !== '') return ran(run);
      const teams = (JSON.parse(run.stdout) as { teams: { name: string; onCall?: unknown[] }[] }).teams;
      return teams.length === 1 && teams[0]!.name === 'Payments' && Array.isArray(teams[0]!.onCall) ? leaks(run) : `unexpected answer: ${run.stdout}`;
    };
    await step(`${runtime.name}: pagerly --version (installed bin)`, async () => {
      const run = await runIn(consumer, installedBin, ['--version'], {}, { nodeDir });
      return run.code === 0 && run.stdout.trim() === (await import('../package.json', { with: { type: 'json' } })).default.version ? undefined : ran(run);
    });
    await step(`${runtime.name}: pagerly on-call --team Payments --json`, async () => {
      const run = await onCall({});
      const node = await runIn(consumer, 'node', ['--version'], {}, { nodeDir });
      return onCallOk(run) ?? (node.stdout.startsWith(`v${runtime.name.split(' ')[1]}.`) ? undefined : `ran on ${node.stdout.trim()}`);
    });
    await step(`${runtime.name}: ... with HTTP_PROXY, the proxy sees both requests and stderr stays empty`, async () => {
      proxy.seen.length = 0;
      const problem = onCallOk(await onCall({ HTTP_PROXY: proxy.url }));
      return problem ?? (proxy.seen.length === 2 ? undefined : `the proxy saw ${proxy.seen.length} requests: ${proxy.seen.join(', ')}`);
    });
    await step(`${runtime.name}: ... with NO_PROXY=127.0.0.1 too, the proxy sees none`, async () => {
      proxy.seen.length = 0;
      const problem = onCallOk(await onCall({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }));
      return problem ?? (proxy.seen.length === 0 ? undefined : `the proxy saw ${proxy.seen.length} requests`);
    });
    await step(`${runtime.name}: an https base through HTTPS_PROXY (CONNECT), its private CA in NODE_EXTRA_CA_CERTS`, async () => {
      proxy.seen.length = 0;
      const problem = onCallOk(await onCall({ PAGERLY_BASE_URL: https.url, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: LOOPBACK_CERT }));
      const tunnels = proxy.seen.filter((target) => target === https.url.replace('https://', ''));
      return problem ?? (tunnels.length > 0 && tunnels.length === proxy.seen.length ? undefined : `the proxy saw: ${proxy.seen.join(', ') || 'nothing'}`);
    });
    await step(`${runtime.name}: ... without the CA, a certificate error, the key nowhere`, async () => {
      const run = await onCall({ PAGERLY_BASE_URL: https.url, HTTPS_PROXY: proxy.url });
      if (run.code === 0) return 'an untrusted certificate was accepted';
      return /cert|self[- ]signed/i.test(run.stderr) ? leaks(run) : `no word of the certificate: ${ran(run)}`;
    });
    await step(`${runtime.name}: a proxy answering 407 (plain, then CONNECT): exit 78, the variable named, its password nowhere`, async () => {
      for (const [variable, base, proxy] of [
        ['HTTP_PROXY', url, refusing],
        ['HTTPS_PROXY', https.url, refusing],
      ] as const) {
        const run = await onCall({ PAGERLY_BASE_URL: base, [variable]: proxy.url });
        if (run.code !== 78) return `${variable}: exit ${run.code}, not 78: ${ran(run)}`;
        if (!run.stderr.includes(`(from ${variable}) refused`)) return `${variable}: no word of the proxy: ${ran(run)}`;
        if (`${run.stdout}${run.stderr}`.includes(proxy.password)) return `${variable}: the proxy's password is in the output`;
        const leak = leaks(run);
        if (leak) return leak;
      }
      return undefined;
    });
    await step(`${runtime.name}: mcp-inspector --cli --method tools/list (installed pagerly mcp)`, async () => {
      const flags = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
      const run = await runIn(consumer, tool('mcp-inspector'), ['--cli', '--method', 'tools/list', ...flags, installedBin, 'mcp'], {}, { nodeDir });
      if (run.code !== 0) return ran(run);
      const names = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      return names.includes('list_on_call_users') ? leaks(run) : `tools: ${names.join(', ')}`;
    });
    await step(`${runtime.name}: pagerly mcp tools/call with HTTP_PROXY, through the proxy`, async () => {
      proxy.seen.length = 0;
      const flags = Object.entries({ ...env, HTTP_PROXY: proxy.url }).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
      const args = ['--cli', '--method', 'tools/call', '--tool-name', 'list_on_call_users', '--tool-arg', 'teamname=Payments', ...flags, installedBin, 'mcp'];
      const run = await runIn(consumer, tool('mcp-inspector'), args, {}, { nodeDir });
      if (run.code !== 0 || (JSON.parse(run.stdout) as { isError?: boolean }).isError) return ran(run);
      return proxy.seen.length > 0 ? leaks(run) : 'the proxy saw no request';
    });
  }

  writeInto(
    consumer,
    'list-teams.mjs',
    `import { createClient } from '@pagerly/client';
const env = globalThis.Deno ? Deno.env.toObject() : process.env;
const pagerly = createClient({ apiKey: env.PAGERLY_API_KEY, baseUrl: env.PAGERLY_BASE_URL });
console.log(JSON.stringify(await pagerly.listTeams()));
`,
  );
  for (const runtime of clientRuntimes()) {
    await step(`${runtime.name}: import '@pagerly/client' and list the teams`, async () => {
      const run = await runIn(consumer, runtime.command, [...runtime.args, 'list-teams.mjs'], env);
      if (run.code !== 0) return ran(run);
      const teams = JSON.parse(run.stdout) as { name: string }[];
      return teams.some((team) => team.name === 'Payments') ? leaks(run) : `unexpected answer: ${run.stdout}`;
    });
  }
  for (const runtime of nodeRuntimes()) {
    const nodeDir = dirname(runtime.command);
    for (const how of ['npx, SIGTERM to npx', 'npx, Ctrl-C', 'bin, SIGTERM', 'npx -y <tarball>, SIGTERM to npx'] as const) {
      await step(`${runtime.name}: pagerly-sandbox --port 0 (${how}): a loopback base answering allteams with the key it printed`, async () => {
        const checked = await checkSandboxCommand(consumer, nodeDir, how, sandboxTarball.tarball);
        return checked.problem;
      });
    }
    await step(`${runtime.name}: import { createSandbox } from '@pagerly/sandbox', in process`, () => checkInProcess(consumer, runtime));
    await step(`${runtime.name}: the example tests of docs/sandbox.md, under node --test and jest`, () => checkExamples(consumer, runtime));
  }
  await step('Node 24: the client with HTTP_PROXY, through the proxy', async () => {
    proxy.seen.length = 0;
    const node24 = nodeRuntimes()[1]!;
    const run = await runIn(consumer, node24.command, ['list-teams.mjs'], { ...env, HTTP_PROXY: proxy.url });
    if (run.code !== 0 || run.stderr !== '') return ran(run);
    return proxy.seen.length === 1 ? undefined : `the proxy saw ${proxy.seen.length} requests`;
  });
} finally {
  await https.close();
  await proxy.close();
  await refusing.close();
  await sandbox.close();
  for (const folder of [consumer, packs]) rmSync(folder, { recursive: true, force: true });
}

console.log(failures.length ? `${failures.length} smoke checks failed: ${failures.join('; ')}` : 'Every smoke check passed.');
process.exitCode = failures.length ? 1 : 0;
