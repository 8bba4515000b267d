import { afterEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createPagerlyMcpServer, tools, type PagerlyMcpOptions } from '../../mcp-server/server.ts';
import { annotationsOf, pluralKey } from '../../mcp-server/tools.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';

/**
 * The tools as made from the catalog, and what a call does with HTTP, in process: the server
 * and the SDK's client over the SDK's in-memory transport. MCP spec 2025-06-18, server/tools
 * (annotations, isError): https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 * and basic/utilities/cancellation: https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/cancellation
 */

const KEY = 'mcp-unit-key-3b8e1f0a9c';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function connected(options: Partial<PagerlyMcpOptions> & { baseUrl: string }) {
  const server = createPagerlyMcpServer({ apiKey: KEY, writeTools: true, version: 'test', backoffMs: 5, ...options });
  const client = new Client({ name: 'unit', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  stops.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe('annotations, from the catalog', () => {
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
  const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
  const create = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  const replace = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };

  it('reads are read-only and idempotent; a create neither; replaces and removals destructive and idempotent', () => {
    expect(byName).toEqual({
      list_teams: read,
      list_on_call_users: read,
      get_directory_entry: read,
      create_incident: create,
      // One endpoint creates and updates incidents; the catalog does not call it safe to repeat.
      update_incident: { ...replace, idempotentHint: false },
      // "Create or replace" (assumption directory-upsert): an entry with that e-mail is replaced.
      create_directory_entry: replace,
      update_directory_entry: replace,
      update_directory_phone: replace,
      change_directory_role: replace,
      remove_directory_entry: replace,
    });
  });

  it('follow the catalog: the same create on an endpoint not safe to repeat loses both hints', () => {
    const op = operations.find((o) => o.id === 'createDirectoryEntry')!;
    if (op.kind !== 'action') throw new Error('an action');
    expect(annotationsOf(op, { ...endpoints.upsertDirectoryEntry, idempotent: false })).toEqual(create);
  });

  it('wraps lists under a plural key made from the noun', () => {
    expect(['Team', 'On-Call User', 'Directory Entry', 'Escalation', 'Match'].map(pluralKey)).toEqual([
      'teams',
      'on_call_users',
      'directory_entries',
      'escalations',
      'matches',
    ]);
  });

  it('says which tools are for org admins only, and that writes need the user to confirm', () => {
    const admin = tools.filter((tool) => tool.description.includes('Org admins only'));
    expect(admin.map((tool) => tool.name)).toEqual(['create_directory_entry', 'update_directory_entry', 'change_directory_role', 'remove_directory_entry']);
    for (const tool of tools) expect(tool.description.includes('confirm with the user')).toBe(tool.writes);
  });
});

describe("create_incident: the status is the service's word (assumption `created-id`)", () => {
  it('the output schema a host lists requires an id and a note, both text that may be empty', async () => {
    const client = await connected({ baseUrl: 'http://127.0.0.1:9' });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'create_incident')!;
    const schema = listed.outputSchema as { properties: Record<string, unknown>; required?: string[] };
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'note']));
    expect(schema.properties.id).toMatchObject({ type: 'string' });
    expect(schema.properties.note).toMatchObject({ type: 'string' });
  });

  it('a 201 with an empty body is a result, not isError: an empty id and the note, valid against the schema', async () => {
    const service = await loopbackServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(201).end());
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const result = await client.callTool({ name: 'create_incident', arguments: { title: 'Disk full' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: '', note: expect.stringContaining('gave no id that could be read') });
  });
});

describe('a call and its HTTP requests', () => {
  it('cancelling a call aborts its HTTP request', async () => {
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let closedEarly = false;
    const service = await loopbackServer((_request, response) => {
      arrived();
      // Never answers: the request ends only when the client goes away.
      response.on('close', () => {
        closedEarly = !response.writableEnded;
      });
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const controller = new AbortController();
    const call = client.callTool({ name: 'list_teams', arguments: {} }, { signal: controller.signal });
    await arrival;
    controller.abort();
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 50 && !closedEarly; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closedEarly).toBe(true);
  });

  it('retries only what the catalog marks idempotent: a read three times, a create once', async () => {
    const seen: string[] = [];
    const service = await loopbackServer((request, response) => {
      seen.push(`${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`);
      request.resume();
      response.writeHead(503, { 'content-type': 'application/json' }).end('[{"Error":"down"}]');
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const read = await client.callTool({ name: 'list_teams', arguments: {} });
    const create = await client.callTool({ name: 'create_incident', arguments: { title: 'Disk full' } });
    expect([read.isError, create.isError]).toEqual([true, true]);
    expect(seen).toEqual([...Array(3).fill('GET /pagerly/o/zapier/allteams'), 'POST /o/incident']);
  });

  it('a network failure is an isError result with the shared, actionable message and no structuredContent', async () => {
    const client = await connected({ baseUrl: await closedPort(), retries: 0 });
    const result = await client.callTool({ name: 'list_teams', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^Could not reach the service at 127\.0\.0\.1:\d+ \(ECONNREFUSED.*Check the network and the base URL\.$/,
    );
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});
