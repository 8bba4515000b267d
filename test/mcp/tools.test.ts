import { afterEach, describe, expect, it } from '@jest/globals';
import { tools, type PagerlyMcpOptions } from '../../mcp-server/server.ts';
import { annotationsOf, pluralKey } from '../../mcp-server/tools.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { closedPort, loopbackServer } from '../support/loopback-server.ts';
import { inProcess } from './in-process.ts';

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

const connected = (options: Partial<PagerlyMcpOptions> & { baseUrl: string }) =>
  inProcess({ apiKey: KEY, writeTools: true, version: 'test', backoffMs: 5, ...options }, stops, 'unit');

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

describe('the words a model reads', () => {
  /** Every text of a tool a model is shown: its description, and every description in its schemas. */
  const textsOf = (tool: (typeof tools)[number]) => {
    const texts = [tool.description];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'description' && typeof inner === 'string') texts.push(inner);
          else walk(inner);
        }
      }
    };
    walk(tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }));
    walk(tool.outputSchema['~standard'].jsonSchema.output({ target: 'draft-2020-12' }));
    return texts;
  };

  it("speak of tools and keys, not of a no-code editor's dropdowns, mapping, steps or labels", () => {
    const editorWords = /dropdown|\bmap(ped)?\b|type or map|Removed Now|this connection|\bstep\b|\bmodule\b|\bZap\b|line items/i;
    const found = tools.flatMap((tool) =>
      textsOf(tool)
        .filter((text) => editorWords.test(text))
        .map((text) => `${tool.name}: ${text}`),
    );
    expect(found).toEqual([]);
  });

  it("say that an on-call result's on_call_* fields are its team's, not the person's", () => {
    // https://modelcontextprotocol.io/specification/2025-06-18/server/tools (Output Schema): the
    // schema is what a model reads a structured result by, so each field says what it holds.
    const onCall = tools.find((tool) => tool.name === 'list_on_call_users')!;
    const output = onCall.outputSchema['~standard'].jsonSchema.output({ target: 'draft-2020-12' }) as {
      properties: { on_call_users: { items: { properties: Record<string, { description: string }> } } };
    };
    const item = output.properties.on_call_users.items.properties;
    for (const key of ['on_call_names', 'on_call_emails', 'on_call_count']) {
      expect([key, item[key]!.description]).toEqual([key, expect.stringMatching(/this result's team/)]);
    }
    expect(item['team']!.description).toMatch(/two teams is one result in each/);
  });

  it('say that who is on call is known for now only: no future shifts, no history', () => {
    const onCall = tools.find((tool) => tool.name === 'list_on_call_users')!;
    expect(onCall.description).toMatch(/this moment only \(as_of, UTC\): the service keeps no schedule of future shifts and no history/);
  });

  // The SDK's client checks `format: email` by RFC 5321 (ASCII only) and would refuse an entry
  // of zoë@exämple.de, which the one address rule takes; the conformance rows run it.
  it('mark no e-mail, argument or result, with a format a client checks', () => {
    for (const tool of tools) {
      const input = JSON.stringify(tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }));
      const output = JSON.stringify(tool.outputSchema['~standard'].jsonSchema.output({ target: 'draft-2020-12' }));
      expect([tool.name, input, output].join('\n')).not.toMatch(/"format":"(idn-)?email"/);
    }
    expect(tools.some((tool) => JSON.stringify(tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).includes('"email"'))).toBe(true);
  });

  it('carry as_of, when the service was asked (UTC), on every read', async () => {
    const service = await loopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":"team_a","name":"A"}]');
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const before = Date.now();
    const result = await client.callTool({ name: 'list_teams', arguments: {} });
    const asOf = (result.structuredContent as { as_of: string }).as_of;
    expect(asOf).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
    for (const tool of tools.filter((t) => t.resultKey)) expect(tool.description).toContain('"as_of": "<UTC time>"');
  });
});

describe('the key in an answer', () => {
  it('is taken out of a successful answer that echoes it, in structuredContent and text alike', async () => {
    const service = await loopbackServer((_request, response) => {
      const echo = [
        { id: 'team_a', name: `Team ${KEY}` },
        { id: encodeURIComponent(KEY.slice(0, 12)), name: 'B' },
      ];
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const result = await client.callTool({ name: 'list_teams', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(KEY.slice(0, 8));
    expect((result.structuredContent as { teams: { name: string }[] }).teams[0]!.name).toBe('Team [redacted]');
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  });
});

describe('bounded answers', () => {
  /** A service with `teams` teams of two people on call each; it counts the requests it got. */
  async function bigOrganization(teams: number) {
    const seen: string[] = [];
    const names = Array.from({ length: teams }, (_, i) => `Team ${String(i + 1).padStart(4, '0')}`);
    const service = await loopbackServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      seen.push(url.pathname + url.search);
      const body = url.pathname.endsWith('/allteams')
        ? names.map((name, i) => ({ id: `team_${i + 1}`, name }))
        : [1, 2].map((n) => {
            const who = `${url.searchParams.get('teamname')!.replace(/\W/g, '').toLowerCase()}-${n}`;
            return { id: `usr_${who}`, name: `Person ${who}`, email: `${who}@acme.example`, imageurl: null };
          });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    stops.push(service.close);
    return { url: service.url, seen };
  }

  // The size of a large organization: 2,000 teams, two people on call in each.
  const TEAMS = 2_000;

  it(`"everyone on call" at ${TEAMS} teams × 2 people, limit 500: at most 100 KB of text, the teams it read, and how to go on`, async () => {
    const org = await bigOrganization(TEAMS);
    const client = await connected({ baseUrl: org.url });
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { limit: 500 } });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text.length).toBeLessThanOrEqual(100_000);
    const out = result.structuredContent as {
      on_call_users: unknown[];
      total: number;
      teams_read: number;
      teams_total: number;
      next_cursor: string;
      note: string;
    };
    expect(out.on_call_users.length).toBeGreaterThan(0);
    expect(out.on_call_users.length).toBeLessThanOrEqual(500);
    // It read the teams whose people fill one answer (what did not fit is at most one team's, read
    // again by the next page), and the few under way when it had them: not 2,000.
    expect(out.teams_read).toBe(out.total / 2);
    expect(2 * out.teams_read - out.on_call_users.length).toBeLessThanOrEqual(2);
    expect(out.teams_total).toBe(TEAMS);
    expect(org.seen.length).toBeLessThanOrEqual(1 + out.teams_read + 3);
    expect(out.note).toBe(
      `Showing ${out.on_call_users.length} people on call; ${out.teams_read} of 2,000 teams read so far (the most that fit in one answer). More remain: call again with the same arguments and cursor set to next_cursor for the next ones; narrow it with teamname or team_contains.`,
    );
    expect(out.next_cursor).toMatch(/^[\w-]+$/);
  }, 30_000);

  it('an unknown team in a large organization is a short failure, not every team quoted back', async () => {
    const org = await bigOrganization(TEAMS);
    const client = await connected({ baseUrl: org.url });
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { teamname: 'Nobody' } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/^No team named "Nobody"/);
    expect(text.length).toBeLessThanOrEqual(2_000);
  });

  it('team_contains reads only the teams it names, and no more of them than limit needs', async () => {
    const org = await bigOrganization(300);
    const client = await connected({ baseUrl: org.url });
    const result = await client.callTool({ name: 'list_on_call_users', arguments: { team_contains: 'team 000', limit: 3 } });
    const out = result.structuredContent as {
      on_call_users: { team: { name: string } }[];
      total: number;
      teams_read: number;
      teams_total: number;
      note: string;
    };
    // Team 0001 … Team 0009 match: nine teams, two people each; three people are in the first two.
    expect(out.on_call_users.map((person) => person.team.name)).toEqual(['Team 0001', 'Team 0001', 'Team 0002']);
    expect([out.total, out.teams_read, out.teams_total]).toEqual([4, 2, 9]);
    const asked = org.seen.filter((path) => path.includes('currentusers')).map((path) => new URL(path, 'http://x').searchParams.get('teamname'));
    // At most the three teams one person each would have needed, and only teams it names.
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(asked.every((name) => /^Team 000[1-9]$/.test(name ?? ''))).toBe(true);
    expect(out.note).toBe(
      'Showing 3 people on call; 2 of 9 teams read so far. More remain: call again with the same arguments and cursor set to next_cursor for the next ones; narrow it with teamname or team_contains.',
    );
  });

  it('list_teams takes name_contains and limit; a filter matching nothing says so', async () => {
    const org = await bigOrganization(250);
    const client = await connected({ baseUrl: org.url });
    const all = (await client.callTool({ name: 'list_teams', arguments: {} })).structuredContent as { teams: unknown[]; total: number; note: string };
    expect([all.teams.length, all.total]).toEqual([100, 250]);
    const some = (await client.callTool({ name: 'list_teams', arguments: { name_contains: '024' } })).structuredContent as {
      teams: { name: string }[];
      total: number;
    };
    expect(some.teams.map((team) => team.name)).toEqual([
      'Team 0024',
      'Team 0240',
      'Team 0241',
      'Team 0242',
      'Team 0243',
      'Team 0244',
      'Team 0245',
      'Team 0246',
      'Team 0247',
      'Team 0248',
      'Team 0249',
    ]);
    expect(some).not.toHaveProperty('note');
    const none = (await client.callTool({ name: 'list_teams', arguments: { name_contains: 'zzz' } })).structuredContent as { teams: unknown[]; note: string };
    expect(none).toMatchObject({ teams: [], total: 0, note: 'Nothing matches name_contains "zzz".' });
    await expect(client.callTool({ name: 'list_teams', arguments: { limit: 501 } })).resolves.toMatchObject({ isError: true });
  });
});

/**
 * Service text reaches the model, and through the host the person, shown and never applied:
 * the result's text and a failure's text show each control, bidi and zero-width character as an
 * escape, by the rule of every surface (shared/visible-controls.ts); `structuredContent` is the
 * data as it came, and the text still parses to it (JSON's own `\uXXXX` escapes).
 */
describe('service text, shown to the model', () => {
  const TEAM = 'Deploy \u202Egnp.exe\u202C';
  const PERSON = 'Ad\u200bmin\u{e0041}';

  it('a result: its text shows the controls and parses to the structured value, which is the data as it came', async () => {
    const service = await loopbackServer((request, response) => {
      request.resume();
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const body = path.endsWith('/allteams')
        ? [{ id: 'team_1', name: TEAM }]
        : [{ id: 'usr_1', name: PERSON, email: 'ad@acme.example', phone: null, role: 'user', imageurl: null }];
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    for (const [name, args] of [
      ['list_teams', {}],
      ['list_on_call_users', {}],
      ['list_on_call_users', { teamname: TEAM }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBeFalsy();
      const { text } = (result.content as { text: string }[])[0]!;
      expect(JSON.stringify(result.structuredContent)).toMatch(/\u202e|\u200b/);
      expect(text).not.toMatch(/[\u202e\u202c\u200b\u{e0041}]/u);
      expect(text).toMatch(/\\u202e|\\u200b/);
      expect(JSON.parse(text)).toEqual(result.structuredContent);
    }
  });

  it("a failure: the service's reason shows the controls", async () => {
    const service = await loopbackServer((request, response) => {
      request.resume();
      response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify([{ Error: `The title ${TEAM} is taken` }]));
    });
    stops.push(service.close);
    const client = await connected({ baseUrl: service.url });
    const result = await client.callTool({ name: 'create_incident', arguments: { title: 'Disk full' } });
    expect(result.isError).toBe(true);
    const { text } = (result.content as { text: string }[])[0]!;
    expect(text).toContain('Deploy \\u202egnp.exe\\u202c');
    expect(text).not.toMatch(/[\u202e\u202c]/);
  });
});
