import type { Command } from 'commander';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { API_KEY_ENV, createPagerlyMcpServer, offeredTools, WRITE_FLAG } from '../../mcp-server/server.ts';
import { UsageError } from '../cli-errors.ts';
import type { Context } from '../context.ts';
import type { GlobalOptions } from '../settings.ts';

/**
 * `pagerly mcp`: the MCP server on stdio, for an AI assistant's host (Claude Desktop, VS Code,
 * Cursor) to start. stdout is the protocol channel and carries nothing else; notes go to stderr,
 * which hosts keep in their server log.
 */
export function registerMcp(program: Command, ctx: Context): void {
  program
    .command('mcp')
    .description('serve Pagerly to an AI assistant: an MCP server on stdio (read-only unless asked)')
    .option(WRITE_FLAG, 'also offer the tools that change data: create and update incidents, change the on-call directory')
    .addHelpText(
      'after',
      `
The key comes only from ${API_KEY_ENV} (put it in the server's "env" in the host's configuration),
never from --api-key nor from a tool's arguments. stdout carries only JSON-RPC; notes go to stderr.
Ends when the host closes stdin. Set-up for Claude Desktop, VS Code and Cursor: docs/mcp.md.`,
    )
    .action(async (options: { enableWriteTools?: boolean }) => {
      if (program.opts<GlobalOptions>().apiKey !== undefined) {
        throw new UsageError(`pagerly mcp takes the key only from ${API_KEY_ENV}, not --api-key: an MCP host passes it in the server's environment`);
      }
      const { apiKey, baseUrl, rotationsBaseUrl, timeoutMs, retries } = ctx.settings();
      const writeTools = options.enableWriteTools === true;
      // The host may end the server at any time: it stops when stdin closes, or on Ctrl-C when run by hand.
      ctx.stopsCleanlyOnInterrupt();
      const handle = serveStdio(
        () =>
          createPagerlyMcpServer({
            apiKey,
            baseUrl,
            rotationsBaseUrl,
            writeTools,
            version: ctx.version,
            ...(timeoutMs === undefined ? {} : { timeoutMs }),
            ...(retries === undefined ? {} : { retries }),
          }),
        { onerror: (error) => ctx.out.note(`pagerly mcp: ${error.message}`) },
      );
      const count = offeredTools(writeTools).length;
      ctx.out.note(
        `pagerly mcp: ${count} tools on stdio (${writeTools ? 'write tools on' : `read-only; ${WRITE_FLAG} adds the write tools`})${apiKey ? '' : `; no ${API_KEY_ENV}: every call will say how to set it`}`,
      );
      await new Promise<void>((resolve) => {
        process.stdin.once('close', resolve);
        process.stdin.once('end', resolve);
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await handle.close();
    });
}
