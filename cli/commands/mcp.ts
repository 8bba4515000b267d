import { type Command, Option } from 'commander';
import { allowedHostsFor, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, KEY_HEADER, serveHttp } from '../../mcp-server/http.ts';
import { isLoopbackAddress } from '../../shared/http/loopback.ts';
import {
  API_KEY_ENV,
  createPagerlyMcpServer,
  offeredTools,
  type PagerlyMcpOptions,
  TOOLS_FLAG,
  ToolSelectionError,
  toolNamesIn,
  WRITE_FLAG,
} from '../../mcp-server/server.ts';
import { UsageError } from '../cli-errors.ts';
import type { Context } from '../context.ts';
import { wholeNumber, type GlobalOptions } from '../settings.ts';
import { commandDrain, shutdownOption } from '../shutdown.ts';
import { serveStdioUntilDrained } from '../../mcp-server/stdio.ts';
import type { Drain } from '../../shared/shutdown/drain.ts';

interface McpFlags {
  enableWriteTools?: boolean;
  tools?: string;
  http?: boolean;
  host: string;
  port: number;
  keyFromHeader?: boolean;
  allowedHosts?: string;
  allowedOrigins?: string;
  shutdownTimeout?: number;
}

/**
 * `pagerly mcp`: the MCP server on stdio, for an AI assistant's host (Claude Desktop, VS Code,
 * Cursor) to start; with `--http`, on Streamable HTTP for hosts that connect to a URL. On stdio,
 * stdout is the protocol channel and carries nothing else; notes go to stderr either way, which
 * hosts keep in their server log.
 */
export function registerMcp(program: Command, ctx: Context): void {
  program
    .command('mcp')
    .description('serve Pagerly to an AI assistant: an MCP server on stdio, or on HTTP with --http (read-only unless asked)')
    .option(WRITE_FLAG, 'also offer the tools that change data: create and update incidents, change the on-call directory')
    .option(`${TOOLS_FLAG} <names>`, 'offer only these tools, comma-separated (e.g. list_on_call_users,create_incident); an unknown name stops the server')
    .option('--http', `serve MCP's Streamable HTTP transport at http://HOST:PORT/mcp instead of stdio (stateless)`)
    .addOption(new Option('--host <host>', 'with --http: the address to listen on (the default is this machine only)').default(DEFAULT_HTTP_HOST))
    .addOption(new Option('--port <n>', 'with --http: the port (0 picks a free one)').argParser(wholeNumber('--port', 0, 65535)).default(DEFAULT_HTTP_PORT))
    .option('--key-from-header', `with --http: take each request's key from its X-APIKEY header, never from ${API_KEY_ENV}`)
    .option('--allowed-hosts <names>', 'with --http: more host names a request may be addressed to (Host header), comma-separated, e.g. behind a proxy')
    .option('--allowed-origins <names>', 'with --http: more browser origins (host names) allowed to call, comma-separated')
    .addOption(shutdownOption())
    .addHelpText(
      'after',
      `
On stdio the key comes only from ${API_KEY_ENV} (put it in the server's "env" in the host's configuration),
never from --api-key nor from a tool's arguments. stdout carries only JSON-RPC; notes go to stderr.
Ends when the host closes stdin, once the call in flight has answered. On HTTP it runs until SIGTERM or
Ctrl-C; a request whose Host or Origin is not allowed gets 403. On SIGTERM or Ctrl-C it stops taking
calls (a new request gets 503 with Retry-After), lets the calls in flight answer for at most
--shutdown-timeout seconds (a call cut then says it may have been done), and exits 0; a second
signal ends it at once. Set-up for Claude Desktop, VS Code and Cursor: docs/mcp.md.`,
    )
    .action(async (options: McpFlags, command: Command) => {
      if (program.opts<GlobalOptions>().apiKey !== undefined) {
        throw new UsageError(`pagerly mcp takes the key only from ${API_KEY_ENV}, not --api-key: an MCP host passes it in the server's environment`);
      }
      // Given on the command line (or in the environment), not filled in by a default.
      const given = (flag: keyof McpFlags) => ![undefined, 'default'].includes(command.getOptionValueSource(flag));
      const httpOnly = (['host', 'port', 'keyFromHeader', 'allowedHosts', 'allowedOrigins'] as const).filter(given);
      if (!options.http && httpOnly.length) {
        const flag = httpOnly[0]!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
        throw new UsageError(`--${flag} is for the HTTP server: add --http`);
      }
      const { apiKey, baseUrl, rotationsBaseUrl, timeoutMs, retries } = ctx.settings();
      const writeTools = options.enableWriteTools === true;
      const toolNames = options.tools === undefined ? undefined : toolNamesIn(options.tools);
      let count: number;
      try {
        count = offeredTools(writeTools, undefined, toolNames).length;
      } catch (error) {
        if (error instanceof ToolSelectionError) throw new UsageError(error.message);
        throw error;
      }
      // The host may end the server at any time: it stops when stdin closes, or on SIGTERM or Ctrl-C.
      const drain = commandDrain(ctx, 'pagerly mcp', 'the server', options.shutdownTimeout);
      const serverOptions: PagerlyMcpOptions = {
        halt: drain.deadline,
        apiKey,
        baseUrl,
        rotationsBaseUrl,
        writeTools,
        toolNames,
        version: ctx.version,
        trace: ctx.trace(),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(retries === undefined ? {} : { retries }),
      };
      const mode = writeTools ? 'write tools on' : `read-only; ${WRITE_FLAG} adds the write tools`;
      try {
        if (options.http) {
          await serveOverHttp(ctx, options, serverOptions, `${count} tools`, mode, drain);
          return;
        }
        const served = serveStdioUntilDrained(
          // The SDK says which era the connection opened in: where the client's capabilities are read.
          ({ era }) => createPagerlyMcpServer({ ...serverOptions, era }),
          drain,
          (error) => ctx.out.note(`pagerly mcp: ${error.message}`),
        );
        ctx.out.note(`pagerly mcp: ${count} tools on stdio (${mode})${apiKey ? '' : `; no ${API_KEY_ENV}: every call will say how to set it`}`);
        await served;
      } finally {
        drain.dispose();
      }
    });
}

const namesIn = (list: string | undefined) => (list === undefined ? [] : toolNamesIn(list));

async function serveOverHttp(ctx: Context, options: McpFlags, serverOptions: PagerlyMcpOptions, tools: string, mode: string, drain: Drain): Promise<void> {
  const { host } = options;
  const keyFromHeader = options.keyFromHeader === true;
  // Said before listening, so it is the first line of the log.
  // Where a listening name goes is up to the resolver: only `localhost` and a loopback address are this machine for sure.
  if (host.toLowerCase() !== 'localhost' && !isLoopbackAddress(host)) {
    // Anyone who can reach the port can call the tools; with the environment's key they act as its owner.
    ctx.out.note(
      `pagerly mcp: warning: listening on ${host}, not this machine only: anyone who can reach this port can call the tools${keyFromHeader ? ' with their own key' : ` as the owner of ${API_KEY_ENV}; prefer --key-from-header`}. Put it behind TLS and a firewall.`,
    );
    // A request must name this machine in Host (DNS-rebinding protection): say so before the first 403 puzzles someone.
    if (!options.allowedHosts) {
      const names = allowedHostsFor({ host }).join(', ');
      ctx.out.note(`pagerly mcp: a request's Host must be one of ${names}; add --allowed-hosts NAME for the name clients use to reach it.`);
    }
  }
  const { port } = options;
  const server = await serveHttp(keyFromHeader ? { ...serverOptions, apiKey: undefined } : serverOptions, {
    host,
    port,
    keyFromHeader,
    allowedHosts: namesIn(options.allowedHosts),
    allowedOrigins: namesIn(options.allowedOrigins),
    onError: (message) => ctx.out.note(`pagerly mcp: ${message}`),
    drain,
  }).catch((error: unknown) => {
    throw listenProblem(error, host, port) ?? error;
  });
  const key = keyFromHeader
    ? `each request's key from its ${KEY_HEADER.toUpperCase()} header`
    : serverOptions.apiKey
      ? `the key from ${API_KEY_ENV}`
      : `no ${API_KEY_ENV}: every call will say how to set it`;
  ctx.out.note(`pagerly mcp: ${tools} on ${server.url} (${mode}; ${key})`);
  const { cut, abandoned } = await drain.settled;
  await server.close();
  ctx.out.note(`pagerly mcp: stopped${cut ? ` (${cut} cut at the deadline${abandoned ? `, ${abandoned} of them unanswered` : ''})` : ''}.`);
}

/** A port or address that cannot be listened on is a setting to change, not a crash: say which flag. */
function listenProblem(error: unknown, host: string, port: number): UsageError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return new UsageError(
      `Port ${port} on ${host} is already in use (another pagerly mcp --http?). Stop it, or choose another port with --port N (--port 0 picks a free one).`,
    );
  if (code === 'EACCES') return new UsageError(`Not allowed to listen on port ${port} of ${host}; choose a port above 1023 with --port N.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(
      `Cannot listen on ${host}: it is not an address of this machine. Leave --host out (127.0.0.1), or give one of this machine's addresses.`,
    );
  return undefined;
}
