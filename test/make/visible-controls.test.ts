import { afterEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { showControlsIml } from '../../make-app/generator/iml-visible-controls.ts';
import { WITHHELD } from '../../make-app/generator/iml-key.ts';
import { evaluateExpression } from '../../make-app/interpreter/iml/index.ts';
import { controlCandidates, escapeOf, showInvisibleControls } from '../../shared/visible-controls.ts';
import { faultServer, json, type Behaviour } from '../support/fault-server.ts';
import { runs } from '../properties/support/runs.ts';
import { makeErrorOf, runnerFor } from './support.ts';

/**
 * Service text in the Make app is shown, never applied, by the rule of every surface
 * (shared/visible-controls.ts), written out in IML with Make's `replace` and a `/.../g` pattern,
 * which "replaces every match" (help.make.com/text-and-binary-functions: replace). Its flags
 * are g, i and m only, so no Unicode class can tell a Persian word's joiner or an emoji
 * sequence from a hiding one: Make shows those too (the rule's safe side).
 */

const KEY = 'sbx_acme_user_0123456789abcdef';
/** What Make shows of a text: every character of the shared rule as its escape, wherever it stands. */
const everyCandidateShown = (text: string) => text.replace(new RegExp(`[${controlCandidates().join('')}]`, 'gu'), escapeOf);
const inMake = (text: string) => evaluateExpression(showControlsIml('text'), { text });

const HOSTILE = {
  rlo: 'Deploy \u202Egnp.exe\u202C',
  zeroWidth: 'Pay\u200Bments\u2060',
  terminal: '\u001b]52;c;cm0gLXJm\u0007\u001b[2J\u009b31m',
  lines: 'ok\r\nforged: line\u2028\u2029',
  tags: `Ops${[...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`,
};

describe('the rule in IML', () => {
  it('shows each character of the shared rule as the shared escape, one pattern each, none raw in the app', () => {
    for (const char of controlCandidates()) expect(inMake(`a${char}b`)).toBe(`a${escapeOf(char)}b`);
    // Written with `\uXXXX` escapes: the generated files hold no raw control character.
    expect(showControlsIml('text')).toMatch(/^[ -~]+$/);
  });

  it.each(Object.entries(HOSTILE))('shows %s as the shared rule does', (_name, text) => {
    expect(inMake(text)).toBe(showInvisibleControls(text));
  });

  it('shows the joiners and flag tags the shared rule keeps in context, since its patterns cannot tell a script', () => {
    const england = '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}';
    for (const text of ['می\u200cخواهم', '👩\u200d💻', england]) {
      expect(showInvisibleControls(text)).toBe(text);
      expect(inMake(text)).toBe(everyCandidateShown(text));
    }
    expect(inMake('می\u200cخواهم')).toBe('می\\u200cخواهم');
  });

  it('gives any text the shared rule without its context exceptions, and keeps everything else as it came', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(inMake(text)).toBe(everyCandidateShown(text));
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('the generated app on a hostile service', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serving = async (behaviour: Behaviour) => {
    const server = await faultServer([behaviour]);
    servers.push(server);
    return runnerFor(server.url);
  };

  it('offers each team with its name as the value, as it came, and its label shown (the team RPC)', async () => {
    const names = Object.values(HOSTILE);
    const run = await serving(
      json(
        200,
        names.map((name, i) => ({ id: `t${i}`, name })),
      ),
    );
    const options = (await run.rpc('listTeams', { connection: { apiKey: KEY } })) as { label: string; value: string }[];
    expect(options.map((option) => option.value)).toEqual(names);
    expect(options.map((option) => option.label)).toEqual(names.map((name) => showInvisibleControls(name)));
  });

  it("shows the controls of the service's error text, and still keeps the key out of it", async () => {
    const run = await serving(json(403, [{ Error: `Team \u202Eevil\u202C is locked\u001b[2J` }]));
    const error = await makeErrorOf(run.rpc('listTeams', { connection: { apiKey: KEY } }));
    expect(error.message).toBe('[403] Not allowed: Team \\u202eevil\\u202c is locked\\x1b[2J');

    const quoting = await serving(json(400, [{ Error: `bad key \u202E${KEY}` }]));
    const refused = await makeErrorOf(quoting.rpc('listTeams', { connection: { apiKey: KEY } }));
    expect(refused.message).toBe('[400] Pagerly refused the input: bad key \\u202e[redacted]');
    expect(refused.message).not.toContain(KEY.slice(0, 8));

    const echoed = await serving(json(500, { Error: `\u200B${KEY.slice(0, 10)}` }));
    expect((await makeErrorOf(echoed.rpc('listTeams', { connection: { apiKey: KEY } }))).message).toContain(WITHHELD);
  });

  it('labels the connection with the names shown, never applied, and never with the key', async () => {
    const answer = { user: { name: 'Grace \u202Eecnanif\u202C' }, organization: { name: 'Ac\u200Bme' } };
    const check = await serving(json(200, answer));
    await expect(check.testConnection({ apiKey: KEY })).resolves.toEqual({
      data: undefined,
      label: { type: 'text', value: 'Grace \\u202eecnanif\\u202c (Ac\\u200bme)' },
    });
    const quoting = await serving(json(200, { user: { name: `\u202E${KEY}` } }));
    await expect(quoting.testConnection({ apiKey: KEY })).resolves.toEqual({ data: undefined, label: { type: 'text', value: 'Pagerly API key' } });
  });
});
