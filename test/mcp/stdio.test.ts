import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { offeredTools, tools } from '../../mcp-server/server.ts';
import { KEY_MARK, KEYS, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { BIN as BIN_PATH, connect, INITIALIZE, isJsonRpc, rawSession, type Connected } from './support.ts';

/** The fields of the tools' structured results that the end-to-end check reads. */
type ToolResult = {
  readonly teams: readonly { readonly name: string }[];
  readonly on_call_users: readonly { readonly team: { readonly name: string }; readonly on_call_count: number }[];
  readonly directory_entries: readonly unknown[];
  readonly id: string;
};

/**
 * `pagerly mcp` as a host runs it: the real process over stdio, the SDK's client, the sandbox.
 * MCP spec 2025-06-18, server/tools: https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 * and basic/transports (stdio): https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio
 */

let s: CliSandbox;
let readOnly: Connected;
let writing: Connected;
const env = () => ({ PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: s.url });

beforeAll(async () => {
  s = await startCliSandbox();
  [readOnly, writing] = await Promise.all([connect([], env()), connect(['--enable-write-tools'], env())]);
}, 30_000);
afterAll(async () => {
  await Promise.all([readOnly?.close(), writing?.close()]);
  await s?.close();
});

const NEW_HIRE = 'new.hire@acme.example';

/**
 * One call of every tool, in an order the sandbox can answer (the incident created is updated,
 * the person added is changed and removed); `id` is the created incident's.
 */
const calls = (id: () => string): [string, () => Record<string, unknown>][] => [
  ['list_teams', () => ({})],
  ['list_on_call_users', () => ({})],
  ['list_on_call_users', () => ({ teamname: 'payments' })],
  ['get_directory_entry', () => ({ email: 'katherine@acme.example' })],
  ['create_incident', () => ({ title: 'Disk full', severity: 'P2', teamname: 'Payments' })],
  ['update_incident', () => ({ id: id(), title: 'Disk full', status: 'resolved' })],
  ['create_directory_entry', () => ({ email: NEW_HIRE, name: 'New Hire', phone: '+14155550199' })],
  ['update_directory_entry', () => ({ email: NEW_HIRE, name: 'New Hire Jr' })],
  ['update_directory_phone', () => ({ email: NEW_HIRE, phone: '+1 (415) 555-0198' })],
  ['change_directory_role', () => ({ email: NEW_HIRE, role: 'admin' })],
  ['remove_directory_entry', () => ({ email: NEW_HIRE })],
];

describe('tools/list', () => {
  it('offers the read tools only, without --enable-write-tools', async () => {
    const { tools: listed } = await readOnly.client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(offeredTools(false).map((tool) => tool.name));
    expect(listed.map((tool) => tool.name)).toEqual(['list_teams', 'list_on_call_users', 'get_directory_entry']);
    expect(listed.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('offers every tool with --enable-write-tools, each titled, described, annotated, with an object output schema', async () => {
    const { tools: listed } = await writing.client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const tool of listed) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(tool.title?.length).toBeGreaterThan(5);
      expect(tool.description?.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint']);
      expect(JSON.stringify(tool)).not.toContain('apiKey');
    }
  });

  it('tells the model in its instructions to confirm writes, or that it is read-only', () => {
    expect(writing.client.getInstructions()).toMatch(/before calling one, say what it will do and get the user's confirmation/);
    expect(readOnly.client.getInstructions()).toMatch(/read-only: .* --enable-write-tools/);
  });
});

describe('tools/call of every tool against the sandbox', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  let incidentId = '';
  const results: Record<string, unknown>[] = [];

  it.each(calls(() => incidentId).map(([name, args], index) => [`${index + 1}. ${name}`, name, args] as const))(
    '%s: structuredContent valid against its outputSchema (ajv, 2020-12), the same JSON as text',
    async (_label, name, args) => {
      const { tools: listed } = await writing.client.listTools();
      const tool = listed.find((t) => t.name === name)!;
      const result = await writing.client.callTool({ name, arguments: args() });
      expect(result.isError).toBeFalsy();
      const validate = ajv.compile(tool.outputSchema!);
      expect([validate(result.structuredContent), validate.errors]).toEqual([true, null]);
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
      const structured = result.structuredContent as Record<string, unknown>;
      if (name === 'create_incident') incidentId = String(structured.id);
      results.push(structured);
    },
  );

  it('called every tool, and what came back is what the sandbox holds', () => {
    expect(new Set(calls(() => '').map(([name]) => name))).toEqual(new Set(tools.map((tool) => tool.name)));
    // Each result has passed its tool's outputSchema above; these are the parts read here.
    const [teams, everyone, payments, katherine, created, updated] = results as ToolResult[] as [
      ToolResult,
      ToolResult,
      ToolResult,
      ToolResult,
      ToolResult,
      ToolResult,
    ];
    expect(teams.teams.map((t) => t.name)).toEqual(['Platform', 'Payments', 'Mobile']);
    // "Everyone on call" is read team by team (the documented calls): each person carries their team.
    expect(everyone.on_call_users.length).toBeGreaterThan(payments.on_call_users.length);
    expect(payments.on_call_users.every((u) => u.team.name === 'Payments')).toBe(true);
    expect(payments.on_call_users[0]!.on_call_count).toBe(payments.on_call_users.length);
    expect(katherine.directory_entries).toEqual([expect.objectContaining({ email: 'katherine@acme.example', phone: '+14155550103' })]);
    expect(created).toMatchObject({ title: 'Disk full', status: 'triggered' });
    expect(updated).toMatchObject({ id: created.id, status: 'resolved' });
    expect(results.at(-3)).toMatchObject({ email: NEW_HIRE, name: 'New Hire Jr', phone: '+14155550198' });
    expect(results.at(-1)).toMatchObject({ email: NEW_HIRE, removed: true });
  });

  it('refuses a write tool it did not offer (read-only server): a JSON-RPC -32602, as for an unknown tool', async () => {
    for (const name of ['create_incident', 'no_such_tool']) {
      await expect(readOnly.client.callTool({ name, arguments: { title: 'x' } })).rejects.toMatchObject({ code: -32602 });
    }
  });

  it("gives invalid input back as an isError result with the schema's message, sending nothing", async () => {
    const before = s.sandbox.world.people.size;
    const result = await writing.client.callTool({ name: 'create_directory_entry', arguments: { email: 'not-an-address', name: 'X' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('must be an e-mail address') }] });
    expect(result.structuredContent).toBeUndefined();
    expect(s.sandbox.world.people.size).toBe(before);
  });

  it('gives a service failure back as an isError result with the shared message and no structuredContent', async () => {
    const result = await readOnly.client.callTool({ name: 'list_on_call_users', arguments: { teamname: 'Nobody' } });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'No team named "Nobody". None of the organization\'s 3 teams has a close name.' }],
    });
  });

  it('wrote only JSON-RPC on stdout (the client met no line it could not read), and no key on stderr', () => {
    for (const session of [readOnly, writing]) {
      expect(session.transportErrors).toEqual([]);
      expect(session.stderr()).toMatch(/^pagerly mcp: \d+ tools on stdio/);
      expect(session.stderr()).not.toContain(KEY_MARK);
    }
  });
});

describe('the key and stdout, read raw', () => {
  const requests = [
    ...INITIALIZE,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_teams', arguments: {} } },
  ];

  it('every stdout line is a JSON-RPC message; the key is in none, nor on stderr', async () => {
    const { stdout, stderr, code } = await rawSession([], env(), requests);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBe(3);
    expect(lines.filter((line) => !isJsonRpc(line))).toEqual([]);
    expect(stdout + stderr).not.toContain(KEY_MARK);
    expect(code).toBe(0);
  });

  it('the check fails a server that writes anything else on stdout (a stray log line planted before it starts)', async () => {
    const stray = ['--import', 'data:text/javascript,process.stdout.write("starting\\n")'];
    const { stdout } = await rawSession([], env(), requests, stray);
    expect(stdout.split('\n').filter((line) => line !== '' && !isJsonRpc(line))).toEqual(['starting']);
  });

  it('a refused key is an isError result that does not quote it', async () => {
    const { stdout, stderr } = await rawSession([], { ...env(), PAGERLY_API_KEY: KEYS.wrong }, requests);
    const answer = JSON.parse(stdout.split('\n').find((line) => line.includes('"id":3'))!);
    expect(answer.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('The API key was refused') }] });
    expect(stdout + stderr).not.toContain(KEY_MARK);
  });

  it('without PAGERLY_API_KEY it starts, lists its tools, and each call says how to set the key', async () => {
    const { stdout, stderr } = await rawSession([], { PAGERLY_BASE_URL: s.url }, requests);
    expect(stderr).toContain('no PAGERLY_API_KEY');
    const answer = JSON.parse(stdout.split('\n').find((line) => line.includes('"id":3'))!);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0].text).toMatch(/^No API key: set PAGERLY_API_KEY in this server's "env"/);
  });

  it('refuses --api-key: the key comes only from the environment', async () => {
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      import('node:child_process').then(({ execFile }) =>
        execFile(process.execPath, [BIN_PATH, '--api-key', KEYS.admin, 'mcp'], { env: { PATH: process.env.PATH ?? '' } }, (error, out, err) =>
          resolve({ stdout: out, stderr: err, code: error ? Number(error.code) : 0 }),
        ),
      );
    });
    expect(code).toBe(2);
    expect(stderr).toContain('pagerly mcp takes the key only from PAGERLY_API_KEY');
    expect(stdout + stderr).not.toContain(KEY_MARK);
  });
});
