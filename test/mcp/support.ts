import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, type ClientCapabilities, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The launcher `pagerly` as an MCP host starts it. */
export const BIN = fileURLToPath(new URL('../../bin/pagerly.js', import.meta.url));

/** A JSON-RPC 2.0 message (JSON-RPC 2.0 §4, §5): a request, a notification, a result or an error. */
export function isJsonRpc(line: string): boolean {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return false;
  }
  if (message === null || typeof message !== 'object' || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return false;
  const m = message as Record<string, unknown>;
  return typeof m.method === 'string' || ('id' in m && ('result' in m || 'error' in m));
}

export interface Connected {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Errors the client met reading stdout (a line that is not JSON-RPC is one). */
  readonly transportErrors: Error[];
  close(): Promise<void>;
}

/**
 * `pagerly mcp [...args]` as a host starts it (stdio, the key in the environment), connected
 * with the SDK's client (`client`: one with its own protocol version, capabilities and
 * handlers); `nodeArgs` go before the launcher (a test plants a stray write with them).
 */
export async function connect(
  args: readonly string[],
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
  client = new Client({ name: 'pagerly-test', version: '1.0.0' }),
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const transportErrors: Error[] = [];
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, transportErrors, close: () => client.close() };
}

/**
 * The server's raw stdout for these requests, written one a line then stdin closed: what a
 * host's parser reads, line by line, with nothing of the SDK's client in between.
 */
export function rawSession(args: readonly string[], env: Record<string, string>, requests: readonly object[], nodeArgs: readonly string[] = []) {
  return new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, 'mcp', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    let answered = 0;
    const expected = requests.filter((request) => 'id' in request).length;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      answered = stdout.split('\n').filter((line) => line.includes('"id"')).length;
      // Every request answered: end the session as a host does, by closing stdin.
      if (answered >= expected) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

/** A JSON-RPC message the server wrote, as parsed. */
export type Message = Record<string, any>;

export interface RawStdio {
  /** Writes one message, one a line, as a host does. */
  send(message: object): void;
  /** The first message not yet taken that `matches`, waiting for it up to 10 s. */
  next(matches: (message: Message) => boolean): Promise<Message>;
  /** Every message the server wrote so far, taken or not. */
  written(): readonly Message[];
  /** Ends the session as a host does (stdin closed), and resolves with the exit code. */
  close(): Promise<number | null>;
}

/**
 * `pagerly mcp [...args]` driven message by message, with nothing of the SDK's client in
 * between: for what no well-behaved client sends (a forged answer, another request's state).
 */
export function openRaw(args: readonly string[], env: Record<string, string>): RawStdio {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  const read: Message[] = [];
  const taken = new Set<Message>();
  let wake = () => {};
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) read.push(JSON.parse(line) as Message);
    wake();
  });
  child.stderr.resume();
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    written: () => [...read],
    async next(matches) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = read.find((message) => !taken.has(message) && matches(message));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no such message in 10 s; the server wrote: ${JSON.stringify(read)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      return ended.finally(() => clearTimeout(timer));
    },
  };
}

/** The `_meta` every 2026-07-28 request carries: the revision, and the client's capabilities for this request. */
export const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
});

/** The 2026-era revisions the server speaks, as it says itself (`server/discover`). */
async function modernVersions(): Promise<string[]> {
  const { stdout } = await rawSession([], {}, [{ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope() } }]);
  return JSON.parse(stdout.split('\n')[0]!).result.supportedVersions;
}

/** Every protocol version the server speaks: the 2025-era ones (negotiated at `initialize`) and the 2026-era ones. */
export const servedVersions = async (): Promise<string[]> => [...SUPPORTED_PROTOCOL_VERSIONS, ...(await modernVersions())];
export const isModern = (version: string) => version >= '2026-07-28';

/** The SDK's client speaking exactly `version`: offered alone at `initialize`, or pinned through `server/discover`. */
export const clientAt = (name: string, version: string, capabilities: ClientCapabilities = {}) =>
  new Client(
    { name, version: '1.0.0' },
    isModern(version) ? { capabilities, versionNegotiation: { mode: { pin: version } } } : { capabilities, supportedProtocolVersions: [version] },
  );

/** The opening of a 2025-era session, as hosts send it today. */
export const INITIALIZE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
] as const;

export interface HttpProcess {
  /** The server's `/mcp` URL, as its start-up note gives it. */
  readonly url: string;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<number | null>;
}

/** `pagerly mcp --http --port 0 [...args]` as a person or a service manager starts it; resolves once it listens. */
export function startHttp(args: readonly string[], env: Record<string, string>): Promise<HttpProcess> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stderr = '';
  let stdout = '';
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up note in 20 s: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /on (http:\/\/\S+\/mcp) /.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        stderr: () => stderr + stdout,
        close: () => {
          child.kill('SIGTERM');
          return ended;
        },
      });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`pagerly mcp --http ended (${code}) before it listened: ${stderr}`));
    });
  });
}
