import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { compareReports, differenceLine } from '../../scripts/api/classify.ts';
import type { ApiItem, Fact, SurfaceId } from '../../scripts/api/model.ts';

/**
 * The written rules fact by fact, on one item changed at a time, each with its platform's
 * meaning and the page that says it. Whichever extractor reports a fact, the same rule applies,
 * read with the meaning of the surface the item belongs to.
 */

function differenceOf(surface: SurfaceId, kind: string, before: Record<string, Fact>, after: Record<string, Fact>) {
  const item = (facts: Record<string, Fact>): ApiItem => ({ id: 'x/y', kind, facts });
  const [difference, ...more] = compareReports({ surface, items: [item(before)] }, { surface, items: [item(after)] });
  expect(more).toEqual([]);
  return difference;
}
const verdictOf = (surface: SurfaceId, kind: string, before: Record<string, Fact>, after: Record<string, Fact>) =>
  differenceOf(surface, kind, before, after)?.verdict;

type Row = readonly [
  name: string,
  surface: SurfaceId,
  kind: string,
  before: Record<string, Fact>,
  after: Record<string, Fact>,
  verdict: 'breaking' | 'compatible',
];

describe('the rules, fact by fact', () => {
  it.each([
    // The name an exit code has in the code is no contract: which errors get the number is (`error/<code>`'s `exitCode`).
    ["an exit code's name in the code", 'cli', 'exit-code', { meaning: 'transient' }, { meaning: 'temporary' }, 'compatible'],
    ['a flag starting to take a value', 'cli', 'flag', { takesValue: false }, { takesValue: true }, 'breaking'],
    ["a declaration's signature", 'client', 'function', { signature: 'f(a: string): void' }, { signature: 'f(a: string, b?: number): void' }, 'breaking'],
    ['a label', 'zapier', 'input', { label: 'Title' }, { label: 'Incident title' }, 'compatible'],
    ['a help text', 'make', 'input', { help: 'a' }, { help: 'b' }, 'compatible'],
    ['an input made optional', 'mcp', 'input', { required: true }, { required: false }, 'compatible'],
    ['an output that may now be missing', 'mcp', 'output', { required: true }, { required: false }, 'breaking'],
    ['an output now always there', 'openapi', 'output', { required: false }, { required: true }, 'compatible'],
    ["an input's maximum length lowered", 'mcp', 'input', { maxLength: 255 }, { maxLength: 100 }, 'breaking'],
    ["an input's maximum length raised", 'mcp', 'input', { maxLength: 100 }, { maxLength: 255 }, 'compatible'],
    ["an input's minimum raised", 'openapi', 'request-property', { minimum: 1 }, { minimum: 2 }, 'breaking'],
    ["an input's limit newly set", 'mcp', 'input', {}, { maxItems: 10 }, 'breaking'],
    ["an output's maximum length lowered", 'openapi', 'output', { maxLength: 255 }, { maxLength: 100 }, 'compatible'],
    ["an input's pattern", 'make', 'parameter', { pattern: 'sha256:a' }, { pattern: 'sha256:b' }, 'breaking'],
    ['a single field made a list', 'zapier', 'input', { list: false }, { list: true }, 'breaking'],
    ['a module of another type', 'make', 'module', { kind: 'action' }, { kind: 'search' }, 'breaking'],
    ['hidden again shown', 'zapier', 'create', { hidden: true }, {}, 'compatible'],
    // The exit code a kind of failure gets (cli/exit-codes.ts EXIT_BY_ERROR): pipelines retry on
    // 75, EX_TEMPFAIL (https://man.freebsd.org/cgi/man.cgi?query=sysexits), and on nothing else.
    ['a kind of failure given another exit code', 'cli', 'error', { exitCode: 75 }, { exitCode: 1 }, 'breaking'],
    [
      'a case of a kind of failure given another exit code',
      'cli',
      'error',
      { exitCode: 75, exitCodeIfNotRetryable: 1 },
      { exitCode: 75, exitCodeIfNotRetryable: 75 },
      'breaking',
    ],
    ['the order that picks the exit code of several failures', 'cli', 'order', { order: ['3', '4'] }, { order: ['4', '3'] }, 'breaking'],
    // A command's positional arguments are passed by place (commander: .argument(), in order:
    // https://github.com/tj/commander.js#command-arguments).
    ['two positional arguments swapped', 'cli', 'command', { positionals: ['email', 'phone'] }, { positionals: ['phone', 'email'] }, 'breaking'],
    ['a positional argument inserted before another', 'cli', 'command', { positionals: ['file'] }, { positionals: ['source', 'file'] }, 'breaking'],
    ['a positional argument added at the end', 'cli', 'command', { positionals: ['email'] }, { positionals: ['email', 'field'] }, 'compatible'],
    ['a positional argument renamed in place', 'cli', 'command', { positionals: ['email', 'phone'] }, { positionals: ['address', 'phone'] }, 'compatible'],
    ['the path an MCP client connects to', 'mcp', 'endpoint', { path: '/mcp' }, { path: '/v1/mcp' }, 'breaking'],
    // OpenAPI's security scheme (https://spec.openapis.org/oas/v3.1.0#security-scheme-object): a generated
    // client sends the key under `name`, in `in`; header names ignore letter case (RFC 9110, section 5.1).
    ['the header the key is sent in renamed', 'openapi', 'auth', { in: 'header', name: 'X-APIKEY' }, { in: 'header', name: 'Authorization' }, 'breaking'],
    ["the key's header spelled in other letter case", 'openapi', 'auth', { in: 'header', name: 'X-APIKEY' }, { in: 'header', name: 'X-ApiKey' }, 'compatible'],
    ['the key sent in the query instead', 'openapi', 'auth', { in: 'header', name: 'apikey' }, { in: 'query', name: 'apikey' }, 'breaking'],
    // `pagerly mcp` offers the write tools only with --enable-write-tools (docs/mcp.md).
    ['an MCP tool moved behind --enable-write-tools', 'mcp', 'tool', { writeTool: false }, { writeTool: true }, 'breaking'],
    ['an MCP tool offered without --enable-write-tools', 'mcp', 'tool', { writeTool: true }, { writeTool: false }, 'compatible'],
  ] as Row[])('%s (%s): %s', (_name, surface, kind, before, after, verdict) => {
    expect(verdictOf(surface, kind, before, after)).toBe(verdict);
  });

  it('names each fact that changed, and the worst verdict decides', () => {
    const difference = differenceOf('cli', 'flag', { label: 'A', required: false }, { label: 'B', required: true });
    expect([difference?.verdict, difference?.change]).toEqual(['breaking', 'label: "A" → "B"; required: false → true']);
  });

  it('an item that changed its kind under the same id: breaking', () => {
    const [difference] = compareReports(
      { surface: 'cli', items: [{ id: 'x', kind: 'flag', facts: {} }] },
      { surface: 'cli', items: [{ id: 'x', kind: 'command', facts: {} }] },
    );
    expect([difference?.verdict, difference?.change]).toEqual(['breaking', 'kind of item: flag → command']);
  });

  it.each([
    ['cli', /^CLI: .*new major version of @pagerly\/cli/],
    ['client', /^Client: .*new major version of @pagerly\/client/],
    ['openapi', /^OpenAPI: .*major version/],
    ['incident-action', /^Action: .*moving major tag .*next major tag/],
    ['directory-action', /^Action: .*moving major tag .*next major tag/],
  ] as const)('says what to do on %s, in its own terms', (surface, advice) => {
    const [difference] = compareReports({ surface, items: [{ id: 'x', kind: 'flag', facts: {} }] }, { surface, items: [] });
    expect(difference?.advice).toMatch(advice);
  });
});

/**
 * No choices means any value. On an input a list where there was none, or a value removed,
 * refuses what saved steps send; on an output a value added, or the list dropped, may reach a
 * filter or switch that does not expect it. Make's list of breaking changes: "Removing or changing
 * items in a list or dropdown" (https://developers.make.com/custom-apps-documentation/app-maintenance/updating-your-app/approved-apps/managing-breaking-changes);
 * Zapier's versioning matrix counts output data changes as breaking
 * (https://docs.zapier.com/platform/manage/planning-changes).
 */
describe('value sets: no choices means any value', () => {
  it.each([
    ['free text narrowed to a list (the issue: severity)', 'mcp', 'input', {}, { choices: ['P1', 'P2'] }, 'breaking'],
    ['what the runtime accepts narrowed to a list', 'zapier', 'input', {}, { accepts: ['P1', 'P2'] }, 'breaking'],
    ['a list dropped: any value now', 'openapi', 'request-property', { choices: ['a'] }, {}, 'compatible'],
    ['a static choice removed', 'n8n', 'property', { choices: ['a', 'b'] }, { choices: ['a'] }, 'breaking'],
    ['a static choice added', 'make', 'parameter', { choices: ['a'] }, { choices: ['a', 'b'] }, 'compatible'],
    [
      'suggestions changed where any value is taken',
      'make',
      'parameter',
      { choices: ['a', 'b'], customValues: true },
      { choices: ['a'], customValues: true },
      'compatible',
    ],
    ['values outside the suggestions no longer taken', 'make', 'parameter', { choices: ['a'], customValues: true }, { choices: ['a'] }, 'breaking'],
    ['a value the output may take added', 'cli', 'output', { choices: ['a'] }, { choices: ['a', 'b'] }, 'breaking'],
    [
      'a value the output may take renamed (the issue: an error code)',
      'cli',
      'output',
      { choices: ['a', 'rate_limited'] },
      { choices: ['a', 'rate_limit'] },
      'breaking',
    ],
    ['a value the output may take removed: narrowed', 'n8n', 'output', { choices: ['a', 'b'] }, { choices: ['a'] }, 'compatible'],
    ['an output that gave any value now gives a fixed set: narrowed', 'n8n', 'output', {}, { choices: ['a'] }, 'compatible'],
    ['an output that gave a fixed set now gives any value: widened', 'cli', 'output', { choices: ['a'] }, {}, 'breaking'],
  ] as Row[])('%s (%s): %s', (_name, surface, kind, before, after, verdict) => {
    expect(verdictOf(surface, kind, before, after)).toBe(verdict);
  });
});

/**
 * Types: an input that takes every value it took is widened (integer → number: JSON Schema's
 * `number` holds every `integer`, https://json-schema.org/understanding-json-schema/reference/numeric);
 * an output that gives fewer kinds of value is narrowed. Make coerces number, boolean and date to
 * text ("if the original type can be coerced to the new type, it's fine. e.g. number -> text",
 * Make's list of breaking changes, above). Zapier's versioning matrix marks an input field's type
 * change "Depends" (https://docs.zapier.com/platform/manage/planning-changes): compatible, with what to check.
 */
describe('types: widened inputs, narrowed outputs', () => {
  it.each([
    ['an MCP input widened from integer to number (the issue)', 'mcp', 'input', { type: 'integer' }, { type: 'number' }, 'compatible'],
    ['an MCP input narrowed from number to integer', 'mcp', 'input', { type: 'number' }, { type: 'integer' }, 'breaking'],
    ['an input widened to more types', 'openapi', 'request-property', { type: 'string' }, { type: 'number|string' }, 'compatible'],
    ['an input narrowed to fewer types', 'mcp', 'input', { type: 'number|string' }, { type: 'string' }, 'breaking'],
    ['a list of integers widened to numbers', 'mcp', 'input', { type: 'array<integer>' }, { type: 'array<number>' }, 'compatible'],
    ['a Make number parameter made text', 'make', 'parameter', { type: 'number' }, { type: 'text' }, 'compatible'],
    ['a Make text parameter made a URL', 'make', 'parameter', { type: 'text' }, { type: 'url' }, 'breaking'],
    ['an output that may now be null', 'mcp', 'output', { type: 'string' }, { type: 'null|string' }, 'breaking'],
    ['an output that can no longer be null: narrowed', 'mcp', 'output', { type: 'null|string' }, { type: 'string' }, 'compatible'],
    ["an output's type changed", 'zapier', 'output', { type: 'datetime' }, { type: 'number' }, 'breaking'],
  ] as Row[])('%s (%s): %s', (_name, surface, kind, before, after, verdict) => {
    expect(verdictOf(surface, kind, before, after)).toBe(verdict);
  });

  it("a Zapier input field's type changed (text to string, the issue): compatible, the line saying it depends and what to check", () => {
    const difference = differenceOf('zapier', 'input', { type: 'text' }, { type: 'string' })!;
    expect(difference.verdict).toBe('compatible');
    expect(difference.depends).toMatch(/^check that every value saved Zaps send in this field, typed or mapped, is still taken as "string"/);
    // The line keeps `<surface> <id>: breaking|compatible: <why>`, so tools that read the verdict do not block on it.
    expect(differenceLine(difference)).toMatch(
      /^zapier x\/y: compatible: depends: check that every value .*; type: "text" → "string"\. Zapier: its versioning matrix says this depends/,
    );
  });

  it('a Zapier input widened (integer to number) is plainly compatible, with nothing to check', () => {
    const difference = differenceOf('zapier', 'input', { type: 'integer' }, { type: 'number' })!;
    expect([difference.verdict, difference.depends]).toEqual(['compatible', undefined]);
  });
});

/**
 * A changed default breaks where a saved automation leaves the value out and gets the default at
 * run time, and not where the platform stores the value the step was set up with:
 * - Zapier: "A default value that is saved the first time a Zap is created" (zapier-platform-schema's
 *   FieldSchema, read below; https://docs.zapier.com/platform/build-cli/schema#fieldschema).
 * - Make: a module's parameters are saved with the scenario; Make's list of breaking changes (above)
 *   does not name a default.
 * - n8n: saves only the parameters that differ from their default (n8n-workflow's
 *   `NodeHelpers.getNodeParameters` with `returnDefaults: false`, shown on the real function in
 *   test/api/n8n-defaults.test.ts); the options of a collection are saved whole once added.
 * - GitHub Actions: "The default value is used when an input parameter isn't specified in a
 *   workflow file" (https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax#inputsinput_iddefault).
 * - CLI: commander gives an option its default when the command line leaves it out
 *   (https://github.com/tj/commander.js#default-option-value).
 * - MCP: an agent leaves out an argument the tool list gives a `default` (JSON Schema's annotation,
 *   https://json-schema.org/understanding-json-schema/reference/annotations), and hosts cache
 *   the tool list (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification).
 * - OpenAPI: "The default value represents what would be assumed by the consumer of the input as
 *   the value of the schema if one is not provided" (https://spec.openapis.org/oas/v3.1.0#fixed-fields-20).
 * - The typed client: code that leaves a setting out gets the default.
 */
describe('defaults: breaking where saved automations leave them out', () => {
  it.each([
    [
      'an n8n parameter (the default resource, when operations are reordered)',
      'n8n',
      'property',
      { default: 'incident' },
      { default: 'directoryEntry' },
      'breaking',
    ],
    ['an n8n parameter gets a default where it had none', 'n8n', 'property', {}, { default: 'P3' }, 'breaking'],
    ['an n8n credential property', 'n8n', 'credential-property', { default: 'https://api.pagerly.io' }, { default: 'https://eu.pagerly.io' }, 'breaking'],
    ["an n8n collection option's prefill", 'n8n', 'property', { prefill: 'P1' }, { prefill: 'P3' }, 'compatible'],
    ['an Action input (the issue)', 'incident-action', 'action-input', { default: 'https://api.pagerly.io' }, { default: 'https://eu.pagerly.io' }, 'breaking'],
    ['a directory Action input', 'directory-action', 'action-input', { default: 'auto' }, { default: 'plan' }, 'breaking'],
    ["a CLI flag's documented value (time-out)", 'cli', 'flag', { default: '15' }, { default: '30' }, 'breaking'],
    ['what a CLI variable left unset stands for', 'cli', 'env', { default: 'https://api.pagerly.io' }, { default: 'https://eu.pagerly.io' }, 'breaking'],
    ['an MCP tool default', 'mcp', 'input', { default: '100' }, { default: '50' }, 'breaking'],
    ['an OpenAPI request default', 'openapi', 'request-property', { default: 'a' }, { default: 'b' }, 'breaking'],
    ['a client setting left out', 'client', 'property', { default: '15000' }, { default: '30000' }, 'breaking'],
    ['a Zapier input (stored with the Zap)', 'zapier', 'input', { required: false, default: 'P3' }, { required: false, default: 'P4' }, 'compatible'],
    ['a Make parameter (stored with the scenario)', 'make', 'parameter', { required: false, default: 'P3' }, { required: false, default: 'P4' }, 'compatible'],
    ['a required Zapier input loses its default', 'zapier', 'input', { required: true, default: 'P3' }, { required: true }, 'breaking'],
  ] as Row[])('%s (%s): %s', (_name, surface, kind, before, after, verdict) => {
    expect(verdictOf(surface, kind, before, after)).toBe(verdict);
  });

  it("Zapier's own schema says a default is saved with the Zap", () => {
    const require = createRequire(import.meta.url);
    const schema = readFileSync(require.resolve('zapier-platform-schema/exported-schema.json'), 'utf8');
    expect(schema).toContain('"description": "A default value that is saved the first time a Zap is created."');
  });
});

/**
 * Where a dropdown's choices come from is not what a saved step stores. Make: a select filled by
 * an RPC stores the value picked (https://developers.make.com/custom-apps-documentation/best-practices/remote-procedure-calls),
 * and a scenario never names the RPC. Zapier: `dynamic` is `trigger.valueKey.labelKey`, and the
 * value key is "the value to be made available in bundle.inputData"
 * (https://docs.zapier.com/platform/build-cli/dynamic-dropdowns): another one stores another kind of value.
 */
describe('dropdown sources: not the stored value', () => {
  it.each([
    ['a Make RPC renamed (the issue)', 'make', 'parameter', { dynamic: 'rpc://listTeams' }, { dynamic: 'rpc://listAllTeams' }, 'compatible'],
    ["an n8n list's method renamed", 'n8n', 'property', { dynamic: 'searchTeams' }, { dynamic: 'searchAllTeams' }, 'compatible'],
    [
      'a Zapier dropdown fed by another trigger, the same value key',
      'zapier',
      'input',
      { dynamic: 'team.name.name' },
      { dynamic: 'teams.name.name' },
      'compatible',
    ],
    ['a Zapier dropdown storing another key', 'zapier', 'input', { dynamic: 'team.name.name' }, { dynamic: 'team.id.name' }, 'breaking'],
    // The label is "the human friendly value to be shown on the left of the dropdown" (the page above): what options read, not what is stored.
    [
      'a Zapier dropdown showing another label field, the same value key',
      'zapier',
      'input',
      { dynamic: 'team.name.name' },
      { dynamic: 'team.name.name_shown' },
      'compatible',
    ],
    ['a dropdown source dropped (a free field)', 'zapier', 'input', { dynamic: 'team.name.name' }, {}, 'compatible'],
    ['a Make parameter made static (no longer mappable)', 'make', 'parameter', { placement: 'mappable' }, { placement: 'static' }, 'breaking'],
  ] as Row[])('%s (%s): %s', (_name, surface, kind, before, after, verdict) => {
    expect(verdictOf(surface, kind, before, after)).toBe(verdict);
  });

  it('a Make RPC removed or renamed: compatible, saying why', () => {
    const rpc = { id: 'rpc/listTeams', kind: 'rpc', facts: { label: 'List teams' } };
    const differences = compareReports({ surface: 'make', items: [rpc] }, { surface: 'make', items: [{ ...rpc, id: 'rpc/listAllTeams' }] });
    expect(differences.map((d) => [d.id, d.verdict])).toEqual([
      ['rpc/listAllTeams', 'compatible'],
      ['rpc/listTeams', 'compatible'],
    ]);
    expect(differences[1]!.change).toMatch(/removed \(renamed to listAllTeams\?\) \(a scenario never names an RPC/);
  });
});

describe('a removed exit code', () => {
  it('says what it meant, so the reader knows which pipelines branch on it', () => {
    const five = { id: 'exit-code/5', kind: 'exit-code', facts: { meaning: 'mayHaveApplied' } };
    const six = { id: 'exit-code/6', kind: 'exit-code', facts: { meaning: 'mayHaveApplied' } };
    const [removed] = compareReports({ surface: 'cli', items: [five] }, { surface: 'cli', items: [six] }).filter((d) => d.id === 'exit-code/5');
    expect(removed).toMatchObject({ verdict: 'breaking', change: expect.stringContaining('removed (it meant "mayHaveApplied")') });
  });
});
