import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createPagerlyMcpServer } from '../../mcp-server/server.ts';
import { tools } from '../../mcp-server/server.ts';
import { KEY_MARK, KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';

/**
 * The destructive tools ask the person first, through the client (MCP spec 2025-06-18,
 * client/elicitation: https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation).
 * The server and the SDK's client in process (a 2025-era connection: the SDK sends a real
 * `elicitation/create`), against the sandbox, which shows whether anything changed.
 */

let s: CliSandbox;
beforeAll(async () => {
  s = await startCliSandbox();
});
afterAll(() => s.close());
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };

/** A client that answers every question with `answer` (and records it), or one without elicitation. */
async function connected(answer: Answer | 'no elicitation') {
  const asked: { message: string; requestedSchema: unknown }[] = [];
  const server = createPagerlyMcpServer({ apiKey: KEYS.admin, baseUrl: s.url, writeTools: true, version: 'test' });
  const client = new Client({ name: 'confirm-test', version: '1.0.0' }, { capabilities: answer === 'no elicitation' ? {} : { elicitation: {} } });
  if (answer !== 'no elicitation') {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      asked.push({ message: params.message, requestedSchema: params.requestedSchema });
      return answer;
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  stops.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('remove_directory_entry and change_directory_role ask first', () => {
  it('are the tools that ask', () => {
    expect(tools.filter((tool) => tool.asksFirst).map((tool) => tool.name)).toEqual(['change_directory_role', 'remove_directory_entry']);
  });

  it('a yes: the person is asked, with what will happen, and the tool acts', async () => {
    const { client, asked } = await connected({ action: 'accept', content: { confirm: true } });
    const result = await client.callTool({ name: 'remove_directory_entry', arguments: { email: 'hedy@acme.example' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ email: 'hedy@acme.example', removed: true });
    expect(person(s.sandbox, 'hedy@acme.example')).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe(
      'An AI assistant wants to remove a person from the directory in Pagerly (email: hedy@acme.example). Removing cannot be undone: the person leaves every rotation and their API keys stop working for good. Go ahead?',
    );
    expect(asked[0]!.requestedSchema).toMatchObject({ type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
    expect(JSON.stringify(asked)).not.toContain(KEY_MARK);
  });

  it.each<[string, Answer, RegExp]>([
    ['a decline', { action: 'decline' }, /^Not done: the user said no, so remove_directory_entry was not called and nothing changed/],
    ['a cancel', { action: 'cancel' }, /^Not done: the user dismissed the question, so remove_directory_entry was not called/],
    ['an accepted form left unticked', { action: 'accept', content: { confirm: false } }, /^Not done: the user said no/],
  ])('%s changes nothing', async (_label, answer, said) => {
    const { client, asked } = await connected(answer);
    const before = s.sandbox.world.people.size;
    const result = await client.callTool({ name: 'remove_directory_entry', arguments: { email: 'katherine@acme.example' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(said);
    expect(result.structuredContent).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(person(s.sandbox, 'katherine@acme.example')).toBeDefined();
    expect(s.sandbox.world.people.size).toBe(before);
  });

  it('a role change asks too, and a decline leaves the role as it was', async () => {
    const { client, asked } = await connected({ action: 'decline' });
    const result = await client.callTool({ name: 'change_directory_role', arguments: { email: 'alan@acme.example', role: 'admin' } });
    expect(result.isError).toBe(true);
    expect(asked[0]!.message).toContain("change a person's role in Pagerly (email: alan@acme.example, role: admin)");
    expect(person(s.sandbox, 'alan@acme.example')?.role).toBe('user');
  });

  it('a client without elicitation gets the tool as before: it acts without asking', async () => {
    const { client, asked } = await connected('no elicitation');
    const result = await client.callTool({ name: 'change_directory_role', arguments: { email: 'edsger@acme.example', role: 'admin' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ email: 'edsger@acme.example', role: 'admin' });
    expect(person(s.sandbox, 'edsger@acme.example')?.role).toBe('admin');
    expect(asked).toEqual([]);
  });

  it('the other writes do not ask, even where the client could', async () => {
    const { client, asked } = await connected({ action: 'decline' });
    const result = await client.callTool({ name: 'update_directory_phone', arguments: { email: 'alan@acme.example', phone: '+14155550177' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([]);
  });
});
