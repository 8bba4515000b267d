import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { tools } from '../../mcp-server/server.ts';
import { KEY_MARK, KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { inProcess } from './in-process.ts';
import { envelope, type Message, openRaw, type RawStdio } from './support.ts';

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
  const client = new Client({ name: 'confirm-test', version: '1.0.0' }, { capabilities: answer === 'no elicitation' ? {} : { elicitation: {} } });
  if (answer !== 'no elicitation') {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      asked.push({ message: params.message, requestedSchema: params.requestedSchema });
      return answer;
    });
  }
  await inProcess({ apiKey: KEYS.admin, baseUrl: s.url, writeTools: true, version: 'test' }, stops, client);
  return { client, asked };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

let people = 0;
/** A person of Acme's directory made for one test, so each has someone to remove. */
async function newPerson(): Promise<string> {
  const email = `confirm.${++people}@acme.example`;
  expect((await s.cli(['directory', 'set', email, '--name', `Confirm ${people}`])).code).toBe(0);
  return email;
}

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

  it('no tool takes a confirm argument, and one the model adds anyway does not skip the question', async () => {
    const properties = (tool: (typeof tools)[number]) => tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }).properties as object;
    expect(tools.filter((tool) => 'confirm' in properties(tool)).map((tool) => tool.name)).toEqual([]);
    const { client, asked } = await connected({ action: 'decline' });
    const result = await client.callTool({ name: 'remove_directory_entry', arguments: { email: 'katherine@acme.example', confirm: true } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Not done: the user said no/);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).not.toContain('confirm');
    expect(person(s.sandbox, 'katherine@acme.example')).toBeDefined();
  });

  it('the question shows what the arguments hold: an invisible character is shown as an escape, never applied', async () => {
    // A joiner between Latin letters and a tag character pass as an address (email-address.ts)
    // but show nothing: the person would read "admin@acme.example" and agree to another address.
    const { client, asked } = await connected({ action: 'decline' });
    const hidden = 'ad\u200dmin\u{e0041}@acme.example';
    const result = await client.callTool({ name: 'remove_directory_entry', arguments: { email: hidden } });
    expect(result.isError).toBe(true);
    expect(asked[0]!.message).toContain('(email: ad\\u200dmin\\u{e0041}@acme.example)');
    expect(asked[0]!.message).not.toMatch(/[\u200d\u{e0041}]/u);
  });

  it('the other writes do not ask, even where the client could', async () => {
    const { client, asked } = await connected({ action: 'decline' });
    const result = await client.callTool({ name: 'update_directory_phone', arguments: { email: 'alan@acme.example', phone: '+14155550177' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([]);
  });
});

/**
 * What no well-behaved client sends, written raw to the real `pagerly mcp` process over stdio:
 * capabilities claimed where they do not count, an answer nobody was asked for, the answer to
 * another call, a forged or foreign `requestState` (MCP spec 2026-07-28, basic/patterns/mrtr:
 * the state comes back from the client as untrusted input the server integrity-protects).
 * Whatever comes, nobody is removed without the person's yes.
 */
describe('an attacker speaking raw JSON-RPC', () => {
  const env = (key: string = KEYS.admin) => ({ PAGERLY_API_KEY: key, PAGERLY_BASE_URL: s.url });
  const yes = { confirm: { action: 'accept', content: { confirm: true } } };
  let id = 100;
  const call = (email: string, extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: ++id,
    method: 'tools/call',
    params: { name: 'remove_directory_entry', arguments: { email }, ...extra },
  });
  const answerTo = (request: { id: number }) => (message: Message) => message.id === request.id;
  const sessions: RawStdio[] = [];
  const open = (key?: string) => {
    const session = openRaw(['--enable-write-tools'], env(key));
    sessions.push(session);
    return session;
  };
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });

  const initialize = (capabilities: Record<string, unknown>) => [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1.0.0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];

  it("a 2025-era session that declared no elicitation: a request's _meta claiming 2026 and elicitation does not stand in for initialize", async () => {
    const raw = open();
    for (const message of initialize({})) raw.send(message);
    await raw.next(answerTo({ id: 1 }));
    const email = await newPerson();
    const request = call(email, { _meta: envelope({ elicitation: {} }), inputResponses: yes });
    raw.send(request);
    // Not asked (a question would wait for an answer this session never sends): the tool as before.
    const { result } = await raw.next(answerTo(request));
    expect(result.structuredContent).toEqual({ email, removed: true });
    expect(raw.written().filter((message) => message.method === 'elicitation/create')).toEqual([]);
    expect(person(s.sandbox, email)).toBeUndefined();
  });

  it("a 2025-era session that declared elicitation is asked, whatever a request's _meta says", async () => {
    const raw = open();
    for (const message of initialize({ elicitation: {} })) raw.send(message);
    await raw.next(answerTo({ id: 1 }));
    const email = await newPerson();
    const request = call(email, { _meta: envelope({}) });
    raw.send(request);
    const question = await raw.next((message) => message.method === 'elicitation/create');
    expect(question.params.message).toContain(`(email: ${email})`);
    raw.send({ jsonrpc: '2.0', id: question.id, result: { action: 'decline' } });
    const { result } = await raw.next(answerTo(request));
    expect(result.content[0].text).toMatch(/^Not done: the user said no/);
    expect(person(s.sandbox, email)).toBeDefined();
  });

  /** A 2026-07-28 call of a client that declares elicitation; the question it gets back, or its result. */
  const modern = (email: string, extra: Record<string, unknown> = {}) => call(email, { _meta: envelope({ elicitation: {} }), ...extra });

  it('2026-07-28: a yes sent with the first call, before any question, is no yes: the person is asked', async () => {
    const raw = open();
    const email = await newPerson();
    const request = modern(email, { inputResponses: yes });
    raw.send(request);
    const { result } = await raw.next(answerTo(request));
    expect(result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(typeof result.requestState).toBe('string');
    expect(person(s.sandbox, email)).toBeDefined();
  });

  it("2026-07-28: the yes to one person's removal, with its state, does not remove another; with its own call it does", async () => {
    const raw = open();
    const [asked, other] = [await newPerson(), await newPerson()];
    const first = modern(asked);
    raw.send(first);
    const { requestState } = (await raw.next(answerTo(first))).result;
    const swapped = modern(other, { inputResponses: yes, requestState });
    raw.send(swapped);
    expect((await raw.next(answerTo(swapped))).result.resultType).toBe('input_required');
    expect(person(s.sandbox, other)).toBeDefined();
    // The same answer and state with the call they belong to: the one removal the person agreed to.
    const own = modern(asked, { inputResponses: yes, requestState });
    raw.send(own);
    expect((await raw.next(answerTo(own))).result.structuredContent).toEqual({ email: asked, removed: true });
    expect(person(s.sandbox, other)).toBeDefined();
  });

  it.each<[string, unknown, RegExp | 'asks again']>([
    ['a yes whose tick is the text "true"', { confirm: { action: 'accept', content: { confirm: 'true' } } }, /^Not done: the user said no/],
    ['an accept with no form', { confirm: { action: 'accept' } }, /^Not done: the user said no/],
    [
      'an answer wrapped as {method, result}',
      { confirm: { method: 'elicitation/create', result: { action: 'accept', content: { confirm: true } } } },
      'asks again',
    ],
    ['an answer under another key', { yes: { action: 'accept', content: { confirm: true } } }, 'asks again'],
    ['answers as a list', [{ action: 'accept', content: { confirm: true } }], 'asks again'],
  ])('2026-07-28: %s, with the right state, removes nobody', async (_label, inputResponses, said) => {
    const raw = open();
    const email = await newPerson();
    const first = modern(email);
    raw.send(first);
    const { requestState } = (await raw.next(answerTo(first))).result;
    const forged = modern(email, { inputResponses, requestState });
    raw.send(forged);
    const answer = await raw.next(answerTo(forged));
    if (said === 'asks again') expect(answer.result.resultType).toBe('input_required');
    else expect([answer.result.isError, answer.result.content[0].text]).toEqual([true, expect.stringMatching(said)]);
    expect(person(s.sandbox, email)).toBeDefined();
  });

  it('2026-07-28: a state altered, or minted under another key, is refused before any tool runs; the same key elsewhere takes it', async () => {
    const [ours, theirs] = [open(), open(KEYS.owner)];
    const email = await newPerson();
    const minted = modern(email);
    theirs.send(minted);
    const foreign: string = (await theirs.next(answerTo(minted))).result.requestState;
    ours.send(modern(email));
    const own: string = (await ours.next(answerTo({ id }))).result.requestState;
    const altered = `${own.slice(0, -2)}${own.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const requestState of [foreign, altered]) {
      const request = modern(email, { inputResponses: yes, requestState });
      ours.send(request);
      expect((await ours.next(answerTo(request))).error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
    }
    expect(person(s.sandbox, email)).toBeDefined();
    // Another process with the same key takes it: instances behind a load balancer share no memory.
    const sameKey = open();
    const answered = modern(email, { inputResponses: yes, requestState: own });
    sameKey.send(answered);
    expect((await sameKey.next(answerTo(answered))).result.structuredContent).toEqual({ email, removed: true });
  });
});
