import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ClientCapabilities, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { KEY_MARK, KEYS, person, startCliSandbox, type CliSandbox } from '../cli/support.ts';
import { clientAt, connect, type HttpProcess, isModern, servedVersions, startHttp } from './support.ts';

/**
 * The person confirms a removal on every path the server offers: each protocol version it
 * speaks × each transport × what the client declares and answers. The real `pagerly mcp`
 * process, over stdio and over Streamable HTTP, the SDK's own client at each version, the
 * sandbox to show whether the person is still there.
 * - 2025-06-18 and 2025-11-25, client/elicitation: the capability is declared at `initialize`
 *   and the server sends `elicitation/create`:
 *   https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
 * - 2026-07-28: capabilities come with each request (`_meta`), and the question is an
 *   `input_required` result the client answers by calling again:
 *   https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
 * Where the client can be asked, only the person's yes removes; where it cannot (no form
 * elicitation, or a 2025-era client over stateless HTTP: the documented limit), the tool acts
 * as before, on the model's own confirmation, and no question goes out.
 */

/** Every version the server speaks. */
const VERSIONS = await servedVersions();

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> };
const ANSWERS: [string, Answer][] = [
  ['a no', { action: 'decline' }],
  ['a dismissed question', { action: 'cancel' }],
  ['a form left unticked', { action: 'accept', content: { confirm: false } }],
  ['a yes', { action: 'accept', content: { confirm: true } }],
];

/** What the client declares: form elicitation (`{}` means form, by the spec), none, or URL mode only (no form to show). */
const DECLARES: [string, ClientCapabilities][] = [
  ['declares elicitation', { elicitation: {} }],
  ['declares no elicitation', {}],
  ['declares URL elicitation only', { elicitation: { url: {} } }],
];

let s: CliSandbox;
let http: HttpProcess;
const env = () => ({ PAGERLY_API_KEY: KEYS.admin, PAGERLY_BASE_URL: s.url });

beforeAll(async () => {
  s = await startCliSandbox();
  http = await startHttp(['--enable-write-tools'], env());
}, 30_000);
afterAll(async () => {
  await http?.close();
  await s?.close();
});

let people = 0;
/** A person of Acme's directory made for one call, so each call has someone to remove. */
async function newPerson(): Promise<string> {
  const email = `matrix.${++people}@acme.example`;
  const made = await s.cli(['directory', 'set', email, '--name', `Matrix ${people}`]);
  expect(made.code).toBe(0);
  return email;
}

/** A question on the wire, in either era: a 2025-era `elicitation/create`, or a 2026-07-28 `input_required` result. */
const isQuestion = (message: Record<string, any>) => message.method === 'elicitation/create' || message.result?.resultType === 'input_required';

/**
 * A client at `version` with `capabilities`, whose person answers each question with the next
 * of `answers`; `questions` are those the server sent, as read off the wire.
 */
async function client(transport: 'stdio' | 'http', version: string, capabilities: ClientCapabilities) {
  const asked: string[] = [];
  const questions: unknown[] = [];
  const answers: Answer[] = [];
  const c = clientAt('confirm-matrix', version, capabilities);
  if (capabilities.elicitation) {
    c.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return answers.shift() ?? { action: 'cancel' };
    });
  }
  if (transport === 'stdio') await connect(['--enable-write-tools'], env(), [], c);
  else await c.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  // Every message the server sends passes the transport's `onmessage`, which the client set at connect.
  const wire = c.transport!;
  const read = wire.onmessage!;
  wire.onmessage = (message, extra) => {
    if (isQuestion(message as Record<string, any>)) questions.push(message);
    read(message, extra);
  };
  return { client: c, asked, questions, answers, close: () => c.close() };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

/** The cells: each transport × version × what the client declares. */
const CELLS = (['stdio', 'http'] as const).flatMap((transport) =>
  VERSIONS.flatMap((version) => DECLARES.map(([declares, capabilities]) => [transport, version, declares, capabilities] as const)),
);

describe('remove_directory_entry on every protocol version and transport', () => {
  it('covers every version the server speaks, both eras', () => {
    expect(VERSIONS).toEqual(expect.arrayContaining(['2025-06-18', '2025-11-25', '2026-07-28']));
  });

  it.each(CELLS)('%s, %s, a client that %s', async (transport, version, _declares, capabilities) => {
    // A 2025-era client over HTTP is served statelessly: the server never sees its `initialize`.
    const canAsk = capabilities.elicitation !== undefined && !('url' in capabilities.elicitation) && !(transport === 'http' && !isModern(version));
    const session = await client(transport, version, capabilities);
    try {
      expect(session.client.getNegotiatedProtocolVersion()).toBe(version);
      if (canAsk) {
        for (const [label, answer] of ANSWERS) {
          const email = await newPerson();
          session.answers.push(answer);
          const result = await session.client.callTool({ name: 'remove_directory_entry', arguments: { email } });
          const yes = label === 'a yes';
          expect([label, 'removed', person(s.sandbox, email) === undefined]).toEqual([label, 'removed', yes]);
          expect([label, session.asked.at(-1)]).toEqual([label, expect.stringContaining(`remove a person from the directory in Pagerly (email: ${email})`)]);
          expect([label, result.isError === true]).toEqual([label, !yes]);
          if (!yes) expect(text(result)).toMatch(/^Not done: the user (said no|dismissed the question), so remove_directory_entry was not called/);
        }
        expect(session.asked).toHaveLength(ANSWERS.length);
        expect(session.questions).toHaveLength(ANSWERS.length);
        return;
      }
      // The documented limit: one call, the tool as before, on the model's own confirmation.
      const email = await newPerson();
      const result = await session.client.callTool({ name: 'remove_directory_entry', arguments: { email } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ email, removed: true });
      expect(person(s.sandbox, email)).toBeUndefined();
      expect([session.questions, session.asked]).toEqual([[], []]);
      expect(JSON.stringify(result)).not.toContain(KEY_MARK);
    } finally {
      await session.close();
    }
  });
});
