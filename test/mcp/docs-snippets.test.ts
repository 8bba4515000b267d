import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildCliPackage, CLI_PACKAGE } from '../../cli/build-cli-package.ts';
import { offeredTools } from '../../mcp-server/server.ts';
import { createSandbox, demoKeys } from '../../sandbox/index.ts';
import { KEY_MARK, KEYS, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { startHttp } from './support.ts';

/**
 * The host configurations docs/mcp.md tells people to paste, each parsed as the host reads it
 * and started as the host starts it. Formats: Claude Desktop's `mcpServers`
 * (https://modelcontextprotocol.io/quickstart/user), VS Code's `.vscode/mcp.json` with `servers`
 * and a password `inputs` entry (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration),
 * Cursor's `.cursor/mcp.json` with `mcpServers` and `${env:NAME}` (https://docs.cursor.com/context/model-context-protocol).
 * `npx -y @pagerly/cli` runs the package's bin: here the package built afresh into a temporary
 * folder stands in for npx's download (nothing is fetched from the registry).
 */

const NPX_PACKAGE = ['-y', CLI_PACKAGE];
const page = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
const snippets = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as Config);

interface ServerEntry {
  type?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}
interface HttpEntry {
  type?: string;
  url: string;
  headers: Record<string, string>;
}
interface Config {
  mcpServers?: Record<string, ServerEntry>;
  servers?: Record<string, ServerEntry>;
  inputs?: { type: string; id: string; password?: boolean }[];
}

const [claude, vscode, cursor, vscodeHttp, cursorHttp, practice] = snippets as [Config, Config, Config, HttpConfig, HttpConfig, Config];
interface HttpConfig {
  mcpServers?: Record<string, HttpEntry>;
  servers?: Record<string, HttpEntry>;
  inputs?: { type: string; id: string; password?: boolean }[];
}

/** A host's variable as written in its configuration: `${env:NAME}`, `${input:id}`. */
const hostVariable = (name: string) => `\${${name}}`;

/** The server entry as the host resolves it: its variables given values. */
function resolved(entry: ServerEntry, values: Record<string, string>): ServerEntry {
  const fill = (text: string) => text.replace(/\$\{[^}]+\}/g, (variable) => values[variable] ?? variable);
  return { ...entry, args: entry.args.map(fill), env: Object.fromEntries(Object.entries(entry.env).map(([name, value]) => [name, fill(value)])) };
}

let s: CliSandbox;
let packageDir: string;
beforeAll(async () => {
  s = await startCliSandbox();
  packageDir = mkdtempSync(join(tmpdir(), 'pagerly-cli-package-'));
  await buildCliPackage(packageDir);
}, 60_000);
afterAll(async () => {
  await s.close();
  rmSync(packageDir, { recursive: true, force: true });
});

describe('the host configurations in docs/mcp.md', () => {
  it('are six JSON snippets: Claude Desktop, VS Code, Cursor over stdio; VS Code and Cursor over HTTP; practice on the sandbox', () => {
    expect(snippets).toHaveLength(6);
    expect(Object.keys(claude.mcpServers ?? {})).toEqual(['pagerly']);
    expect(Object.keys(vscode.servers ?? {})).toEqual(['pagerly']);
    expect(Object.keys(cursor.mcpServers ?? {})).toEqual(['pagerly']);
  });

  it('give the key only in the environment; VS Code asks for it through a password input, Cursor reads it from its own environment', () => {
    const input = vscode.inputs?.[0];
    expect(input).toMatchObject({ type: 'promptString', password: true });
    expect(vscode.servers!.pagerly!.env).toEqual({ PAGERLY_API_KEY: hostVariable(`input:${input!.id}`) });
    expect(vscode.servers!.pagerly!.type).toBe('stdio');
    expect(cursor.mcpServers!.pagerly!.env).toEqual({ PAGERLY_API_KEY: hostVariable('env:PAGERLY_API_KEY') });
    for (const entry of [claude.mcpServers!.pagerly!, vscode.servers!.pagerly!, cursor.mcpServers!.pagerly!]) {
      expect(Object.keys(entry.env)).toEqual(['PAGERLY_API_KEY']);
      expect(entry.command).toBe('npx');
      expect(entry.args.slice(0, 3)).toEqual([...NPX_PACKAGE, 'mcp']);
      expect(entry.args.join(' ')).not.toContain('--api-key');
    }
  });

  const hosts: [string, () => ServerEntry][] = [
    ['Claude Desktop', () => resolved(claude.mcpServers!.pagerly!, {})],
    ['VS Code', () => resolved(vscode.servers!.pagerly!, { [hostVariable(`input:${vscode.inputs![0]!.id}`)]: KEYS.admin })],
    ['Cursor', () => resolved(cursor.mcpServers!.pagerly!, { [hostVariable('env:PAGERLY_API_KEY')]: KEYS.admin })],
  ];

  it.each(hosts)('%s: the snippet starts the server, which lists its tools and answers a call', async (_host, entry) => {
    const { command, args, env } = entry();
    // Claude Desktop's snippet holds a placeholder for the key: the test's key stands in for it.
    const key = env.PAGERLY_API_KEY === 'your-api-key' ? KEYS.admin : env.PAGERLY_API_KEY!;
    expect([command, ...args.slice(0, 2)]).toEqual(['npx', ...NPX_PACKAGE]);
    const transport = new StdioClientTransport({
      // What npx runs: the package's bin, on `node` from the host's PATH (here the project's Node 22).
      command: process.execPath,
      args: [join(packageDir, 'bin', 'pagerly.js'), ...args.slice(2)],
      env: { PATH: process.env.PATH ?? '', ...env, PAGERLY_API_KEY: key, PAGERLY_BASE_URL: s.url },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'docs-snippet', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(offeredTools(args.includes('--enable-write-tools')).map((tool) => tool.name));
      const result = await client.callTool({ name: 'list_teams', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(KEY_MARK);
    } finally {
      await client.close();
    }
  });
});

describe('the HTTP host configurations in docs/mcp.md', () => {
  const DOCUMENTED_URL = 'http://127.0.0.1:8791/mcp';

  it('point at the default address and send the key only in X-APIKEY, from a password input or the environment', () => {
    const vs = vscodeHttp.servers!.pagerly!;
    const cu = cursorHttp.mcpServers!.pagerly!;
    expect(vs).toEqual({ type: 'http', url: DOCUMENTED_URL, headers: { 'X-APIKEY': hostVariable(`input:${vscodeHttp.inputs![0]!.id}`) } });
    expect(vscodeHttp.inputs![0]).toMatchObject({ type: 'promptString', password: true });
    expect(cu).toEqual({ url: DOCUMENTED_URL, headers: { 'X-APIKEY': hostVariable('env:PAGERLY_API_KEY') } });
  });

  it.each([
    ['VS Code', () => vscodeHttp.servers!.pagerly!],
    ['Cursor', () => cursorHttp.mcpServers!.pagerly!],
  ])('%s: connected as the snippet says to `pagerly mcp --http --key-from-header`, lists the tools and answers a call', async (_host, entry) => {
    const server = await startHttp(['--key-from-header'], { PAGERLY_BASE_URL: s.url });
    const { url, headers } = entry();
    // The snippet's address and key as the host resolves them: this server's port, the test's key.
    const resolvedHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace(/\$\{[^}]+\}/, KEYS.admin)]));
    const client = new Client({ name: 'docs-snippet-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url.replace(DOCUMENTED_URL, server.url)), { requestInit: { headers: resolvedHeaders } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(offeredTools(false).map((tool) => tool.name));
      const result = await client.callTool({ name: 'list_teams', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result) + server.stderr()).not.toContain(KEY_MARK);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('the practice configuration in docs/mcp.md', () => {
  it('starts pagerly mcp with its write tools on the sandbox with a demo key, and the incident it opens lands there', async () => {
    const entry = practice.mcpServers!['pagerly-practice']!;
    expect(entry.command).toBe('npx');
    expect(entry.args).toEqual([...NPX_PACKAGE, 'mcp', '--enable-write-tools']);
    expect(entry.env).toEqual({ PAGERLY_BASE_URL: 'http://127.0.0.1:4010', PAGERLY_API_KEY: demoKeys.acmeAdmin });
    // The sandbox `npx -y @pagerly/sandbox` starts (the demo world), on the port the OS gives for the snippet's 4010.
    const sandbox = await createSandbox();
    const base = await sandbox.listen({ port: 0 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(packageDir, 'bin', 'pagerly.js'), ...entry.args.slice(2)],
      env: { PATH: process.env.PATH ?? '', ...entry.env, PAGERLY_BASE_URL: base },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'docs-snippet-practice', version: '1.0.0' });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: 'create_incident', arguments: { title: 'Practice: checkout is slow', severity: 'P3' } });
      expect(result.isError).toBeFalsy();
      const id = (result.structuredContent as { id: string }).id;
      expect(sandbox.world.incidents.get(id)).toMatchObject({ title: 'Practice: checkout is slow', severity: 'P3' });
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
