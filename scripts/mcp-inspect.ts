// `npm run mcp:inspect`: `pagerly mcp` under @modelcontextprotocol/inspector's CLI mode, as
// CI runs it: `tools/list --strict` (the Inspector's portability check of every tool's schemas;
// any finding fails here, not only its error-severity ones) with the write tools on, then a
// `tools/call` of "who is on call", both against a sandbox started here; then the same two
// against `pagerly mcp --http --key-from-header` (the Inspector's Streamable HTTP transport, the
// key in its X-APIKEY header). Offline: loopback only. One line per step with its time; exit 1
// on any failure.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSandbox, demoKeys } from '../sandbox/index.ts';

const BIN = fileURLToPath(new URL('../bin/pagerly.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The Inspector's CLI on `pagerly mcp` (npm run puts node_modules/.bin, with the project's Node, first on PATH). */
function inspector(method: readonly string[], env: Record<string, string>, serverArgs: readonly string[] = []): Promise<Run> {
  const envFlags = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  return inspectorCli([...method, ...envFlags, process.execPath, BIN, 'mcp', ...serverArgs]);
}

/** The Inspector's CLI on a server already listening at `url`, over Streamable HTTP, with these headers. */
function inspectorOverHttp(method: readonly string[], url: string, headers: readonly string[]): Promise<Run> {
  return inspectorCli([...method, '--transport', 'http', '--server-url', url, ...headers.flatMap((header) => ['--header', header])]);
}

function inspectorCli(args: readonly string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('mcp-inspector', ['--cli', ...args], { env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** What the Inspector wrote on stderr besides the server's own start-up note. */
const findings = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('pagerly mcp: '))
    .join('\n');

/** `pagerly mcp --http --port 0 ...args` until stopped; resolves with its URL once it listens. */
function httpServer(args: readonly string[], env: Record<string, string>): Promise<{ url: string; stderr(): string; stop(): void }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /on (http:\/\/\S+\/mcp) /.exec(stderr)?.[1];
      if (listening) resolve({ url: listening, stderr: () => stderr, stop: () => child.kill() });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`pagerly mcp --http ended (${code}) before it listened: ${stderr}`)));
  });
}

const sandbox = await createSandbox();
const url = await sandbox.listen();
const env = { PAGERLY_API_KEY: demoKeys.acmeAdmin, PAGERLY_BASE_URL: url };
const failures: string[] = [];

/** What the Inspector prints for tools/list and tools/call: the result, as JSON. */
interface Printed {
  tools?: { name: string }[];
  isError?: boolean;
  structuredContent?: { on_call_users?: unknown };
}

function step(name: string, run: Run, check: (output: Printed) => string | undefined) {
  let problem = run.code === 0 ? undefined : `exit ${run.code}`;
  problem ??= findings(run.stderr) || undefined;
  if (!problem) {
    try {
      problem = check(JSON.parse(run.stdout));
    } catch (error) {
      problem = `output is not JSON: ${(error as Error).message}`;
    }
  }
  console.log(`${problem ? '✘' : '✔'} ${name}  ${(run.ms / 1000).toFixed(1)} s${problem ? `\n  ${problem.replace(/\n/g, '\n  ')}` : ''}`);
  if (problem) failures.push(name);
}

const listsEveryTool = (output: Printed) => {
  const names = (output.tools ?? []).map((tool) => tool.name);
  return names.length === 10 && names.includes('create_incident') ? undefined : `expected the 10 tools, got ${names.join(', ')}`;
};
const answersPayments = (output: Printed) => {
  const people = output.structuredContent?.on_call_users;
  if (output.isError || !Array.isArray(people) || people.length === 0)
    return `expected the people on call in Payments, got ${JSON.stringify(output).slice(0, 300)}`;
  return JSON.stringify(output).includes(demoKeys.acmeAdmin) ? 'the key is in the output' : undefined;
};

let http: Awaited<ReturnType<typeof httpServer>> | undefined;
try {
  const list = await inspector(['--method', 'tools/list', '--strict'], env, ['--enable-write-tools']);
  step('inspector --cli --method tools/list --strict (pagerly mcp --enable-write-tools)', list, listsEveryTool);
  const call = await inspector(['--method', 'tools/call', '--tool-name', 'list_on_call_users', '--tool-arg', 'teamname=Payments'], env);
  step('inspector --cli --method tools/call --tool-name list_on_call_users (pagerly mcp)', call, answersPayments);

  // The HTTP mode: no key in the server's environment, so each request's own header is the only key.
  http = await httpServer(['--key-from-header', '--enable-write-tools'], { PAGERLY_BASE_URL: url });
  const key = [`X-APIKEY: ${demoKeys.acmeAdmin}`];
  const httpList = await inspectorOverHttp(['--method', 'tools/list', '--strict'], http.url, key);
  step('inspector --cli --transport http --method tools/list --strict (pagerly mcp --http --key-from-header --enable-write-tools)', httpList, listsEveryTool);
  const httpCall = await inspectorOverHttp(['--method', 'tools/call', '--tool-name', 'list_on_call_users', '--tool-arg', 'teamname=Payments'], http.url, key);
  step('inspector --cli --transport http --method tools/call --tool-name list_on_call_users (pagerly mcp --http)', httpCall, answersPayments);
  if (http.stderr().includes(demoKeys.acmeAdmin)) {
    console.log('✘ pagerly mcp --http wrote the key on stderr');
    failures.push('key on stderr');
  }
} finally {
  http?.stop();
  await sandbox.close();
}
process.exitCode = failures.length ? 1 : 0;
