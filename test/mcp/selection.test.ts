import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { offeredTools, tools, ToolSelectionError } from '../../mcp-server/server.ts';
import { KEY_MARK, KEYS, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { connect } from './support.ts';

/**
 * `--tools`: a team offers the model only the tools it wants (GitHub's MCP server's `--tools`,
 * Grafana's `--enabled-tools`); `--enable-write-tools` keeps its meaning.
 */

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());

describe('offeredTools with names', () => {
  it('offers exactly the tools named, in the catalog order', () => {
    expect(offeredTools(true, tools, ['create_incident', 'list_on_call_users']).map((tool) => tool.name)).toEqual(['create_incident', 'list_on_call_users']);
    expect(offeredTools(false, tools, ['list_teams']).map((tool) => tool.name)).toEqual(['list_teams']);
  });

  it('refuses an unknown name, listing every valid one', () => {
    expect(() => offeredTools(true, tools, ['list_on_call_users', 'delete_everything'])).toThrow(ToolSelectionError);
    try {
      offeredTools(true, tools, ['delete_everything']);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^--tools: no tool named "delete_everything"\. The tools: /);
      for (const tool of tools) expect(message).toContain(tool.name);
    }
  });

  it('refuses a write tool without --enable-write-tools rather than dropping it', () => {
    expect(() => offeredTools(false, tools, ['list_teams', 'remove_directory_entry'])).toThrow(
      '--tools: remove_directory_entry changes data: add --enable-write-tools to offer it.',
    );
  });
});

describe('pagerly mcp --tools', () => {
  it('lists exactly those tools over stdio', async () => {
    const session = await connect(['--enable-write-tools', '--tools', 'list_on_call_users, create_incident'], {
      PAGERLY_API_KEY: KEYS.admin,
      PAGERLY_BASE_URL: s.url,
    });
    try {
      const { tools: listed } = await session.client.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(['create_incident', 'list_on_call_users']);
      await expect(session.client.callTool({ name: 'list_teams', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      expect(session.stderr()).toMatch(/^pagerly mcp: 2 tools on stdio/);
      // The model is told what it has, and pointed at no tool it was not given.
      expect(session.client.getInstructions()).toContain('This server offers these tools only: list_on_call_users, create_incident.');
      expect(session.client.getInstructions()).not.toContain('list_teams');
    } finally {
      await session.close();
    }
  });

  it('stops at start-up on an unknown name, with the valid names (exit 2)', async () => {
    const run = await s.cli(['mcp', '--tools', 'list_on_call_users,who_is_on_call']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--tools: no tool named "who_is_on_call". The tools: list_teams, create_incident (with --enable-write-tools)');
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain(KEY_MARK);
  });

  it('refuses an HTTP flag without --http', async () => {
    const run = await s.cli(['mcp', '--port', '9000']);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('--port is for the HTTP server: add --http')]);
  });
});
