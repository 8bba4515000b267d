import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { INodeProperties } from 'n8n-workflow';
import { actionNodeDescription, credentialDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { generateN8nPackage } from '../../n8n-app/generator/generate.ts';
import { packageJson, paths } from '../../n8n-app/generator/package-files.ts';
import type { NodeProperty } from '../../n8n-app/generator/properties.ts';
import { exampleWorkflow } from '../../n8n-app/generator/readme.ts';
import { description, n8nWords, sentenceCase, titleCase } from '../../n8n-app/generator/wording.ts';
import { ACTION_NODE, CREDENTIAL, ICON_FILES, PACKAGE_NAME, TEAM_SEARCH_METHOD, TRIGGER_NODE } from '../../n8n-app/names.ts';
import { n8nName, n8nNodeName } from '../../n8n-app/operation-names.ts';
import { COLLECTIONS, collectionOf, DEFAULT_LIMIT, LIMIT, RETURN_ALL, returnsMany } from '../../n8n-app/parameters.ts';
import { hookOperation, nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { connection } from '../../shared/operations/connection.ts';
import { operations, stepOf, THIS_STEP } from '../../shared/operations/index.ts';

const UX = 'https://docs.n8n.io/integrations/creating-nodes/build/reference/ux-guidelines/';
const files = generateN8nPackage();
const properties = actionNodeDescription().properties as NodeProperty[];
const shownFor = (resource: string, operation: string) =>
  properties.filter((p) => p.displayOptions?.show.resource?.includes(resource) && p.displayOptions.show.operation?.includes(operation));
/** An operation's parameters, each collection's own parameters after it. */
const parametersOf = (op: (typeof nodeOperations)[number]) => {
  const { resource, operation } = n8nNodeName(op);
  return shownFor(resource, operation).flatMap((p) => [p, ...(p.type === 'collection' ? (p.options as INodeProperties[]) : [])]);
};
const operationOptions = properties.filter((p) => p.name === 'operation').flatMap((p) => p.options as { name: string; value: string; action: string }[]);
/** Every text a user reads in the package: its files, sources and README. */
const texts = [...files.entries()].map(([path, content]) => [path, typeof content === 'string' ? content : JSON.stringify(content)] as const);

// n8n's community-package conventions:
// https://docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines/
// and the package `n8n-node new` writes (n8n-io/n8n, packages/@n8n/node-cli/src/template/templates/programmatic/example/template/).
describe('the n8n package, laid out as `n8n-node new` lays one out', () => {
  const pkg = packageJson();

  it('has the n8n-nodes- name, the keyword, license, repository and an n8n block listing what it builds', () => {
    expect(pkg.name).toMatch(/^n8n-nodes-/);
    expect(pkg.keywords).toContain('n8n-community-node-package');
    expect(pkg.license).toBe('MIT');
    // npm provenance names the repository; n8n requires provenance of verified community nodes.
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    // Its own repository: n8n's community lint refuses a `repository.directory`.
    expect(pkg.repository).not.toHaveProperty('directory');
    expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
    expect(pkg.n8n.nodes.sort()).toEqual([paths.actionJs, paths.triggerJs].sort());
    expect(pkg.n8n.credentials).toEqual([paths.credentialJs]);
    expect(pkg.files).toEqual(['dist']);
  });

  it("has n8n-node's build, lint and release scripts, no runtime dependency, n8n-workflow as peer and dev dependency", () => {
    expect(pkg.scripts).toMatchObject({ build: 'n8n-node build', lint: 'n8n-node lint', release: 'n8n-node release', prepublishOnly: 'n8n-node prerelease' });
    expect(pkg).not.toHaveProperty('dependencies');
    expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['@n8n/node-cli', 'n8n-workflow', 'typescript', 'eslint']));
  });

  it('has nodes/, credentials/, light and dark icons beside each, codex files, a README, tsconfig and eslint config', () => {
    for (const node of [ACTION_NODE, TRIGGER_NODE]) {
      const folder = `nodes/${node.className}`;
      expect(files.get(`${folder}/${node.className}.node.json`)).toMatchObject({ node: `${pkg.name}.${node.name}` });
      for (const icon of Object.values(ICON_FILES)) expect(String(files.get(`${folder}/${icon}`))).toMatch(/^<svg /);
    }
    for (const icon of Object.values(ICON_FILES)) expect(String(files.get(`credentials/${icon}`))).toMatch(/^<svg /);
    expect(files.get(paths.credentialSource)).toBeDefined();
    expect(String(files.get('eslint.config.mjs'))).toContain("from '@n8n/node-cli/eslint'");
    expect(files.get('tsconfig.json')).toMatchObject({ compilerOptions: { strict: true, outDir: './dist/' } });
    expect(actionNodeDescription().icon).toEqual({ light: `file:${ICON_FILES.light}`, dark: `file:${ICON_FILES.dark}` });
    expect(credentialDescription().icon).toEqual({ light: `file:${ICON_FILES.light}`, dark: `file:${ICON_FILES.dark}` });
  });

  it('has sources that import n8n-workflow and the runtime the package carries, nothing else', () => {
    const imports = texts.filter(([path]) => path.endsWith('.ts')).flatMap(([path, text]) => [...text.matchAll(/from '([^']+)'/g)].map((m) => [path, m[1]!]));
    expect(imports.length).toBeGreaterThan(0);
    for (const [path, specifier] of imports) {
      expect({ path, specifier, ok: specifier === 'n8n-workflow' || specifier === '../shared/runtime' }).toEqual({ path, specifier, ok: true });
    }
    expect(files.get(paths.runtimeTypes)).toEqual(expect.stringContaining('export declare function executePagerly'));
  });

  it('writes the README users need: install (GUI and npm), credential, every operation, an importable workflow, compatibility, polling', () => {
    const readme = String(files.get('README.md'));
    for (const heading of ['## Installation', '## Credentials', '## Operations', '## Trigger', '## Example workflow', '## Compatibility'])
      expect(readme).toContain(heading);
    expect(readme).toContain('Settings → Community Nodes');
    expect(readme).toContain(`npm install ${PACKAGE_NAME}`);
    for (const op of nodeOperations) expect(readme).toContain(`| ${n8nNodeName(op).label} | ${n8nNodeName(op).action} |`);
    expect(readme).toMatch(/Polling, not instant/);
    expect(readme).toMatch(/Queue mode/);
    const json = readme.slice(readme.indexOf('```json') + 7, readme.indexOf('```', readme.indexOf('```json') + 7));
    expect(JSON.parse(json)).toEqual(exampleWorkflow());
    expect(exampleWorkflow().nodes.map((node) => node.type)).toEqual([`${PACKAGE_NAME}.${TRIGGER_NODE.name}`, `${PACKAGE_NAME}.${ACTION_NODE.name}`]);
  });
});

describe("the Pagerly node in n8n's idiom", () => {
  it(`has resource and operation values in camelCase (${UX}; n8n's PagerDuty node: incident / create, getAll)`, () => {
    for (const op of nodeOperations) {
      expect(n8nNodeName(op).resource).toMatch(/^[a-z][a-zA-Z]*$/);
      expect(n8nNodeName(op).operation).toMatch(/^[a-z][a-zA-Z]*$/);
    }
  });

  it(`names operations in n8n's vocabulary, without repeating the resource; actions repeat it (${UX}, "Operations name, action")`, () => {
    const vocabulary = /^(Create|Get|Get Many|Update|Delete)( [A-Z][a-z]+)*$/;
    const resourceNames = new Map((properties.find((p) => p.name === 'resource')!.options as { name: string; value: string }[]).map((o) => [o.value, o.name]));
    for (const op of nodeOperations) {
      const { resource, label, action } = n8nNodeName(op);
      const resourceWords = resourceNames
        .get(resource)!
        .toLowerCase()
        .split(/[^a-z]+/);
      expect({ op: op.id, label, vocabulary: vocabulary.test(label) }).toEqual({ op: op.id, label, vocabulary: true });
      // The name leaves the resource out (the dropdown above shows it); an object that is not
      // the resource is named ("Update Phone Number" of a directory entry).
      expect(resourceWords.filter((word) => label.toLowerCase().split(' ').includes(word))).toEqual([]);
      // The action names the resource, whole, in sentence case: "Create an incident", "Get
      // many on call users" (n8n's PagerDuty node: "Get many incidents"), not its words apart.
      // n8n's lint (node-param-operation-option-action-miscased) compares an action with the
      // `sentence-case` package's form of it, which splits words on punctuation: "on-call"
      // must be written "on call" there.
      expect(action.toLowerCase()).toContain(resourceNames.get(resource)!.toLowerCase().replace(/-/g, ' '));
      expect(action).not.toMatch(/[^A-Za-z0-9 ]/);
      expect(action).toBe(sentenceCase(action));
    }
    expect(operationOptions.map((o) => o.name)).not.toContain('Find');
  });

  it(`puts required fields first and optional ones in Additional Fields, Update Fields or Filters (n8n's PagerDuty node, IncidentDescription.ts)`, () => {
    for (const op of nodeOperations) {
      const shown = shownFor(n8nNodeName(op).resource, n8nNodeName(op).operation);
      const required = op.inputFields.filter((f) => f.required).map((f) => f.key);
      const optional = op.inputFields.filter((f) => !f.required).map((f) => f.key);
      const extra = returnsMany(op) ? [RETURN_ALL, LIMIT] : [];
      expect(shown.map((p) => p.name)).toEqual([...required, ...extra, ...(optional.length ? [collectionOf(op).name] : [])]);
      if (!optional.length) continue;
      const collection = shown.at(-1)!;
      const expected = op.kind === 'search' ? COLLECTIONS.filters : op.effect === 'update' ? COLLECTIONS.update : COLLECTIONS.additional;
      expect(collection).toMatchObject({ type: 'collection', displayName: expected.displayName, default: {} });
      const names = (collection.options as INodeProperties[]).map((p) => p.displayName);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect((collection.options as INodeProperties[]).map((p) => p.name).sort()).toEqual([...optional].sort());
    }
  });

  it(`gives Get Many n8n's Return All and Limit (${UX}; n8n's lint: Limit defaults to 50)`, () => {
    const many = nodeOperations.filter(returnsMany);
    expect(many.length).toBeGreaterThan(0);
    for (const op of many) {
      const shown = shownFor(n8nNodeName(op).resource, n8nNodeName(op).operation);
      expect(n8nNodeName(op)).toMatchObject({ operation: 'getAll', label: 'Get Many' });
      expect(shown.find((p) => p.name === RETURN_ALL)).toMatchObject({
        type: 'boolean',
        default: false,
        description: 'Whether to return all results or only up to a given limit',
      });
      expect(shown.find((p) => p.name === LIMIT)).toMatchObject({
        type: 'number',
        default: DEFAULT_LIMIT,
        displayOptions: { show: { [RETURN_ALL]: [false] } },
      });
    }
  });

  it(`picks a team with a resource locator, From List first, By Name second (${UX}, "Resource Locator")`, () => {
    const teams = [
      ...nodeOperations.flatMap(parametersOf),
      ...((triggerNodeDescription().properties.find((p) => p.name === COLLECTIONS.filters.name) as INodeProperties).options as INodeProperties[]),
    ].filter((p) => p.name === 'teamname');
    expect(teams.length).toBe([...nodeOperations, hookOperation()].flatMap((op) => op.inputFields).filter((f) => f.dynamic === 'team').length);
    for (const team of teams) {
      expect(team).toMatchObject({ type: 'resourceLocator', default: { mode: 'list', value: '' } });
      expect(team.modes!.map((m) => [m.name, m.type])).toEqual([
        ['list', 'list'],
        ['name', 'string'],
      ]);
      expect(team.modes![0]!.typeOptions).toEqual({ searchListMethod: TEAM_SEARCH_METHOD, searchable: true });
      expect(team.modes![1]!.placeholder).toMatch(/^e\.g\. /);
    }
    expect(String(files.get(paths.actionSource))).toContain(
      `async ${TEAM_SEARCH_METHOD}(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult>`,
    );
    expect(String(files.get(paths.triggerSource))).toContain(`async ${TEAM_SEARCH_METHOD}(`);
  });

  it(`starts every placeholder with "e.g." (${UX}, "Placeholders")`, () => {
    const placeholders = [...texts.flatMap(([, text]) => [...text.matchAll(/placeholder['"]?: ['"]([^'"]*)['"]/g)].map((m) => m[1]!))];
    const fieldPlaceholders = placeholders.filter((p) => !/^Add (Field|Filter)$/.test(p));
    expect(fieldPlaceholders.length).toBeGreaterThan(3);
    for (const placeholder of fieldPlaceholders) expect(placeholder).toMatch(/^e\.g\. /);
  });

  it('speaks no Zapier or Make: no Zap, step, scenario or module in anything a user reads', () => {
    // tsconfig.json's `module` is TypeScript's setting, and a workflow's `steps:` GitHub's syntax:
    // not words users read; the service's own path /o/zapier/allteams (the credential test's
    // request) is not one either.
    for (const [path, text] of texts.filter(([p]) => p !== 'tsconfig.json' && !p.startsWith('.github/workflows/')))
      expect({ path, words: text.match(/(?<!\/)\b(Zapier|Zaps?|Make\.com|scenarios?|modules?|steps?)\b/gi) }).toEqual({ path, words: null });
    // The wording rule itself: the shared words become n8n's.
    expect(n8nWords(`map the ID from ${stepOf('createIncident')}`)).toBe('map the ID from the "Create an incident" node');
    expect(n8nWords(`Not an error: ${THIS_STEP} succeeds with Removed Now false. Next.`)).toBe('Not an error. Next.');
    expect(n8nWords('The new name. Leave empty to keep it.')).toBe('The new name.');
  });

  it(`can be called by an AI Agent node as a tool (usableAsTool; n8n's node-usable-as-tool lint rule)`, () => {
    expect(actionNodeDescription().usableAsTool).toBe(true);
  });
});

describe('the credential and the trigger', () => {
  it('has a credential with the API key as a password field, sent as X-APIKEY (the nodes test it: credential-test.test.ts)', () => {
    const credential = credentialDescription();
    expect(credential.name).toBe(CREDENTIAL.name);
    expect(credential.properties[0]).toMatchObject({ name: connection.apiKeyField.key, typeOptions: { password: true }, required: true });
    expect(Object.keys(credential.authenticate.properties.headers)).toEqual(['X-APIKEY']);
  });

  it("has a polling trigger with no inputs, no webhook and the hook operation's fields, whose team it can list", () => {
    const trigger = triggerNodeDescription();
    expect(trigger.name.endsWith('Trigger')).toBe(true);
    expect(trigger.inputs).toEqual([]);
    expect(trigger.polling).toBe(true);
    expect(Object.keys(trigger)).not.toContain('webhooks');
    const source = String(files.get(paths.triggerSource));
    expect(source).toContain('async poll(this: IPollFunctions)');
    expect(source).not.toMatch(/webhookMethods|IHookFunctions|IWebhookFunctions/);
  });

  it("writes each description into its class as a literal, which n8n's lint reads", () => {
    const source = String(files.get(paths.actionSource));
    expect(source).toContain(`export class ${ACTION_NODE.className} implements INodeType`);
    expect(source).toContain(`name: '${ACTION_NODE.name}'`);
    for (const op of nodeOperations) expect(source).toContain(`value: '${n8nNodeName(op).operation}'`);
    expect(source).toContain('NodeConnectionTypes.Main');
  });
});

describe('n8n wording of the shared texts', () => {
  it('title-cases names, sentence-cases actions, drops the period of one sentence only', () => {
    expect(titleCase('Phone number')).toBe('Phone Number');
    expect(titleCase('P1 (critical)')).toBe('P1 (Critical)');
    expect(titleCase('E-mail')).toBe('E-Mail');
    expect(titleCase('Find who is on call')).toBe('Find Who Is on Call');
    expect(sentenceCase('Create or Update Incident')).toBe('Create or update incident');
    expect(description('The e-mail to look up.')).toBe('The e-mail to look up');
    expect(description('P1 is urgent. Leave empty for the default.')).toBe('P1 is urgent. Leave empty for the default.');
  });
});

describe('the n8n generator derives everything from shared/', () => {
  /** Every TypeScript file of n8n-app/. */
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? sources(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));

  it('names operations in its name map only, and no field of its own: splitting an operation in shared/ needs no other edit here', () => {
    const root = new URL('../../n8n-app/', import.meta.url).pathname;
    const found = sources(root)
      .map((file) => ({ file: file.slice(root.length), text: readFileSync(file, 'utf8') }))
      .filter(({ file }) => file !== 'operation-names.ts')
      .flatMap(({ file, text }) =>
        ownNames.filter((name) => new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`).test(text)).map((name) => `${file}: ${name}`),
      );
    expect(found).toEqual([]);
  });
});

// Words that are also n8n's or the descriptions' own vocabulary (a property's `name`, n8n's
// operation values create/get/getAll/update/delete, the `dynamic: 'team'` kind of a field)
// cannot tell a hard-coded field from the generic word; `incident` is also an npm keyword.
const vocabulary = new Set([
  'name',
  'description',
  'id',
  'team',
  'incident',
  'create',
  'get',
  'getAll',
  'update',
  'delete',
  'Create',
  'Get',
  'Get Many',
  'Update',
  'Delete',
]);
const ownNames = operations
  .flatMap((op) => [
    op.id,
    ...Object.values(n8nName(op)).filter((value) => value !== TRIGGER_NODE.name && value !== TEAM_SEARCH_METHOD),
    ...op.inputFields.map((f) => f.key),
  ])
  .filter((name) => !vocabulary.has(name));
