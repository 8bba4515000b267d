import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import zapier from 'zapier-platform-core';
import { main as cli } from '../../cli/main.ts';
import { OPERATION_COMMANDS } from '../../cli/operation-commands.ts';
import { DEPRECATED_GROUP, generateMakeApp } from '../../make-app/generator/generate.ts';
import { codeFilePath } from '../../make-app/generator/names.ts';
import { checkAgainstSchemas } from '../../make-app/schema-check/check-against-schemas.ts';
import { makeSchemasDir } from '../../make-app/schema-check/beside-checkout.ts';
import { toolDefinitions } from '../../mcp-server/tools.ts';
import { actionNodeDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { RETIRING_NOTICE } from '../../n8n-app/generator/properties.ts';
import { nodeVersions } from '../../n8n-app/generator/versions.ts';
import { nodeOperationsOf } from '../../n8n-app/runtime/operations.ts';
import rootPackage from '../../package.json' with { type: 'json' };
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { operations } from '../../shared/operations/index.ts';
import { retiringNote, retiringProblems } from '../../shared/operations/retiring.ts';
import type { Operation, OperationId } from '../../shared/operations/types.ts';
import { zapierApp } from '../../zapier-app/index.ts';
import { Capture } from '../cli/support.ts';
import { isolateZapierCore } from '../support/zapier-core-isolation.ts';

/**
 * Retiring an operation is a path, not a deletion (shared/operations/retiring.ts): on a copy of
 * the operations where one is retiring, every surface keeps it working for what already uses it
 * and stops offering it for new use, in its platform's own way, and says what to use instead.
 * The shipped operations stay as they are.
 */
isolateZapierCore();
const require = createRequire(import.meta.url);
const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');
const { validateAppDefinition } = require('zapier-platform-schema') as { validateAppDefinition: (app: object) => { errors: unknown[] } };

const since = rootPackage.version;
function retire(list: readonly Operation[], id: OperationId, use?: OperationId): Operation[] {
  return list.map((op) => (op.id === id ? ({ ...op, retiring: { since, ...(use ? { use } : {}) } } as Operation) : op));
}
// Changing a phone number is what updating an entry with only a phone does: a plausible retirement.
const copy = retire(operations, 'updateDirectoryPhone', 'updateDirectoryEntry');
const withHook = retire(copy, 'onCallChanged');

let sandbox: Sandbox;
const savedBase = process.env.PAGERLY_BASE_URL;
beforeAll(async () => {
  sandbox = await createSandbox();
  process.env.PAGERLY_BASE_URL = await sandbox.listen();
});
afterAll(async () => {
  if (savedBase === undefined) delete process.env.PAGERLY_BASE_URL;
  else process.env.PAGERLY_BASE_URL = savedBase;
  await sandbox?.close();
});

describe('the shared rule', () => {
  it('holds the shipped operations: none retiring by mistake, every retirement well formed', () => {
    expect(retiringProblems(operations, since)).toEqual([]);
    expect(retiringProblems(copy, since)).toEqual([]);
  });

  it('refuses a retirement that could not be carried out: no version, a later one, a missing or retiring replacement, a dropdown source', () => {
    const bad = (id: OperationId, retiring: object) => operations.map((op) => (op.id === id ? ({ ...op, retiring } as Operation) : op));
    expect(retiringProblems(bad('createIncident', { since: 'soon' }), since)).toEqual([
      'createIncident: retiring.since "soon" is not a version such as 1.4.0.',
    ]);
    expect(retiringProblems(bad('createIncident', { since: '99.0.0' }), since)).toEqual([
      `createIncident: retiring.since 99.0.0 is later than the version being built (${since}).`,
    ]);
    expect(retiringProblems(bad('createIncident', { since, use: 'snoozeIncident' }), since)).toEqual([
      'createIncident: retiring.use names "snoozeIncident", which is not an operation.',
    ]);
    expect(retiringProblems(retire(copy, 'updateDirectoryEntry'), since)).toContain(
      'updateDirectoryPhone: retiring.use names updateDirectoryEntry, which is retiring too.',
    );
    expect(retiringProblems(bad('listTeams', { since }), since)).toEqual(['listTeams: a list of choices is no step a user picks; it cannot be retired.']);
  });

  it('is one note, with the replacement in each surface’s words', () => {
    const phone = copy.find((op) => op.id === 'updateDirectoryPhone')!;
    expect(retiringNote(phone, (id) => `<${id}>`)).toBe(
      `Deprecated since version ${since}: it keeps working where it is already used, and will be removed in a future major version. Use <updateDirectoryEntry> instead.`,
    );
    expect(retiringNote(operations.find((op) => op.id === 'createIncident')!, String)).toBeUndefined();
  });
});

describe('Zapier', () => {
  const app = zapierApp(copy);

  it('hides it (display.hidden), says what to use, and leaves every other step shown', () => {
    // https://docs.zapier.com/integrations/build/reorder-action: "Users with that action selected
    // in their existing Zaps would continue to be able to use it", while it is hidden from new ones.
    const phone = app.creates.update_directory_phone!;
    expect(phone.display.hidden).toBe(true);
    expect(phone.display.description).toMatch(/Deprecated since version .*Use the Update Directory Entry step instead\.$/);
    const shown = [...Object.values(app.creates), ...Object.values(app.searches)].filter((step) => step !== phone);
    for (const step of shown) expect(step.display.hidden).toBeUndefined();
    expect(zapierApp().creates.update_directory_phone!.display.hidden).toBeUndefined();
  });

  it('keeps it: the same key, input fields and outputs, valid to Zapier’s schema, and it runs through zapier-platform-core', async () => {
    const shipped = zapierApp().creates.update_directory_phone!;
    const phone = app.creates.update_directory_phone!;
    expect(phone.key).toBe(shipped.key);
    expect(JSON.stringify(phone.operation.inputFields)).toBe(JSON.stringify(shipped.operation.inputFields));
    expect(JSON.stringify(phone.operation.outputFields)).toBe(JSON.stringify(shipped.operation.outputFields));
    // Zapier's own schema of an app definition (what `zapier-platform validate` applies).
    // Functions as the CLI writes them into definition.json: a reference, not the code.
    const definition = JSON.parse(JSON.stringify(app, (_, value) => (typeof value === 'function' ? '$func$2$f$' : value))) as object;
    expect(validateAppDefinition(definition).errors.map(String)).toEqual([]);
    const result = (await zapier.createAppTester(app)(phone.operation.perform as never, {
      authData: { apiKey: demoKeys.acmeAdmin },
      inputData: { email: 'alan@acme.example', phone: '+14155550142' },
    })) as { email: string; phone: string };
    expect(result).toMatchObject({ email: 'alan@acme.example', phone: '+14155550142' });
  });

  it('hides a search-or-create pair with its retiring step, and only then', () => {
    const pair = (list: readonly Operation[]) => zapierApp(list).searchOrCreates!.find_directory_entry!;
    expect(pair(retire(operations, 'createDirectoryEntry', 'updateDirectoryEntry')).display.hidden).toBe(true);
    expect(pair(copy).display.hidden).toBeUndefined();
  });

  it('hides the instant trigger the same way when the hook retires', () => {
    const trigger = zapierApp(withHook).triggers.on_call_changed!;
    expect(trigger.display.hidden).toBe(true);
    expect(trigger.operation.type).toBe('hook');
  });
});

describe('n8n', () => {
  const description = actionNodeDescription(copy) as unknown as INodeTypeDescription;
  const properties = description.properties as INodeProperties[];
  const nodeAt = (typeVersion: number, operation: string): INode => ({
    id: 'n',
    name: 'Pagerly',
    type: 'n8n-nodes-pagerly.pagerly',
    typeVersion,
    position: [0, 0],
    parameters: { resource: 'directoryEntry', operation, email: 'alan@acme.example', phone: '+14155550142' },
  });
  /** The operations n8n offers a node of this version for the resource, by n8n's own display rules. */
  const offered = (typeVersion: number) =>
    properties
      .filter((p) => p.name === 'operation' && NodeHelpers.displayParameter({ resource: 'directoryEntry' }, p, { typeVersion }, description))
      .flatMap((p) => (p.options ?? []).map((option) => (option as { value: string }).value));

  it('adds a node version that no longer offers it, new nodes get that version, saved ones keep theirs', () => {
    expect(description.version).toEqual([1, 2]);
    expect(description.defaultVersion).toBe(2);
    expect(offered(1)).toContain('updatePhoneNumber');
    expect(offered(2)).not.toContain('updatePhoneNumber');
    expect(offered(2)).toEqual(offered(1).filter((value) => value !== 'updatePhoneNumber'));
    // The shipped node is unchanged: one version, everything offered.
    expect((actionNodeDescription() as { version: unknown }).version).toBe(1);
  });

  it('keeps the version a retirement added after the operation is removed, once its release is listed as ended', () => {
    const removed = copy.filter((op) => op.id !== 'updateDirectoryPhone');
    expect(nodeVersions(nodeOperationsOf(removed)).versions).toEqual([1]);
    expect(nodeVersions(nodeOperationsOf(removed), [since]).versions).toEqual([1, 2]);
    expect(nodeVersions(nodeOperationsOf(copy), [since]).versions).toEqual([1, 2]);
  });

  it('a workflow saved at version 1 with it keeps its parameters and has no issue', () => {
    const saved = nodeAt(1, 'updatePhoneNumber');
    expect(NodeHelpers.getNodeParametersIssues(properties, saved, description)).toBeNull();
    expect(NodeHelpers.getNodeParameters(properties, saved.parameters, true, false, saved, description)).toMatchObject(saved.parameters);
    expect(NodeHelpers.getNodeParametersIssues(properties, nodeAt(2, 'update'), description)).toBeNull();
  });

  it('its panel opens with a notice naming the node to use instead', () => {
    const notice = properties.find((p) => p.name === RETIRING_NOTICE)!;
    expect(notice.type).toBe('notice');
    expect(notice.displayName).toContain('Use the "Update a directory entry" node instead.');
    expect(NodeHelpers.displayParameter({ resource: 'directoryEntry', operation: 'updatePhoneNumber' }, notice, { typeVersion: 1 }, description)).toBe(true);
  });

  it('hides the trigger node from the nodes panel, as n8n hides its own deprecated nodes, when the hook retires', () => {
    const trigger = triggerNodeDescription(withHook) as unknown as INodeTypeDescription;
    expect(trigger.hidden).toBe(true);
    expect(trigger.properties[0]!.name).toBe(RETIRING_NOTICE);
    expect((triggerNodeDescription() as { hidden?: true }).hidden).toBeUndefined();
  });
});

describe('Make', () => {
  const files = generateMakeApp({ operations: copy });
  const shipped = generateMakeApp();
  const manifest = (of: Map<string, unknown>) =>
    (of.get('makecomapp.json') as { components: { module: Record<string, { label: string; description: string }> } }).components.module;

  it('keeps the module as it is, marked deprecated and listed apart, saying what to use', () => {
    const module = manifest(files)['updateDirectoryPhone']!;
    expect(module.label).toBe('Update a phone number (deprecated)');
    expect(module.description).toMatch(/Use the Update a directory entry module instead\.$/);
    const groups = files.get('modules/groups.json') as { label: string; modules: string[] }[];
    expect(groups.at(-2)).toEqual({ label: DEPRECATED_GROUP, modules: ['updateDirectoryPhone'] });
    // Every code file of the module (its request, parameters, interface, samples) is the shipped one.
    const own = [...shipped.keys()].filter((path) => path.startsWith(codeFilePath('module', 'updateDirectoryPhone', '').replace(/\.\.iml\.json$/, '')));
    expect(own.length).toBeGreaterThanOrEqual(4);
    for (const path of own) expect(files.get(path)).toEqual(shipped.get(path));
    expect(Object.keys(manifest(files))).toEqual(Object.keys(manifest(shipped)));
  });

  it("holds to Make's own schemas", () => {
    expect(checkAgainstSchemas(makeSchemasDir, files).filter((file) => file.errors.length)).toEqual([]);
  });
});

describe('MCP', () => {
  it('keeps the tool, with its schema, and its description opens with the note', () => {
    const tools = toolDefinitions({ operations: copy, endpoints });
    const shipped = toolDefinitions({ operations, endpoints });
    expect(tools.map((tool) => tool.name)).toEqual(shipped.map((tool) => tool.name));
    const tool = tools.find((t) => t.name === 'update_directory_phone')!;
    expect(tool.description).toMatch(/^Deprecated since version .* Use update_directory_entry instead\. /);
    expect(JSON.stringify(tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }))).toBe(
      JSON.stringify(shipped.find((t) => t.name === 'update_directory_phone')!.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })),
    );
  });
});

describe('CLI', () => {
  const runCli = async (argv: string[], list: readonly Operation[] = copy) => {
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await cli(argv, { PAGERLY_API_KEY: demoKeys.acmeAdmin, PAGERLY_BASE_URL: process.env.PAGERLY_BASE_URL }, { stdout, stderr }, list);
    return { code, stdout: stdout.text, stderr: stderr.text };
  };

  it('leaves the command out of help, and only it', async () => {
    const help = await runCli(['directory', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/^\s+phone\b/m);
    expect(help.stdout).toMatch(/^\s+set\b/m);
    expect((await runCli(['directory', '--help'], operations)).stdout).toMatch(/^\s+phone\b/m);
  });

  it('still runs it, saying on stderr that it is deprecated and what to use', async () => {
    const run = await runCli(['directory', 'phone', 'alan@acme.example', '+14155550143']);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(
      `\`pagerly directory phone\` is deprecated since version ${since}: it keeps working where it is already used, and will be removed in a future major version. Use \`pagerly directory set\` instead.`,
    );
    expect(run.stdout).toContain('+14155550143');
    // --json keeps stderr for the error document: no remark there.
    const json = await runCli(['directory', 'phone', 'alan@acme.example', '+14155550144', '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
  });

  it('retires a command only when every operation it serves retires', async () => {
    expect(OPERATION_COMMANDS.createDirectoryEntry).toEqual(OPERATION_COMMANDS.updateDirectoryEntry);
    const one = await runCli(['directory', '--help'], retire(operations, 'createDirectoryEntry', 'updateDirectoryEntry'));
    expect(one.stdout).toMatch(/^\s+set\b/m);
  });
});
