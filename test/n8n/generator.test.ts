import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { actionNodeDescription, credentialDescription, triggerNodeDescription } from '../../n8n-app/generator/descriptions.ts';
import { generateN8nPackage } from '../../n8n-app/generator/generate.ts';
import { packageJson, paths } from '../../n8n-app/generator/package-files.ts';
import { DYNAMIC_LABEL_SUFFIX, UNSET_CHOICE, type NodeProperty } from '../../n8n-app/generator/properties.ts';
import { description, sentenceCase, titleCase } from '../../n8n-app/generator/wording.ts';
import { ACTION_NODE, CREDENTIAL, TEAM_OPTIONS_METHOD, TRIGGER_NODE } from '../../n8n-app/names.ts';
import { n8nName, n8nNodeName } from '../../n8n-app/operation-names.ts';
import { hookOperation, nodeOperations } from '../../n8n-app/runtime/operations.ts';
import { endpoints } from '../../shared/catalog/endpoints.ts';
import { connection } from '../../shared/operations/connection.ts';
import { operations } from '../../shared/operations/index.ts';

const files = generateN8nPackage('../../runtime/index.ts');
const properties = actionNodeDescription().properties as NodeProperty[];
const shownFor = (resource: string, operation: string) =>
  properties.filter((p) => p.displayOptions?.show.resource?.includes(resource) && p.displayOptions.show.operation?.includes(operation));

// n8n's community-package conventions: https://docs.n8n.io/integrations/creating-nodes/build/reference/verification-guidelines/
describe('the n8n package, generated from shared/', () => {
  it('is a community-node package: n8n-nodes- name, the keyword, an n8n field listing what it builds, no dependencies', () => {
    const pkg = packageJson();
    expect(pkg.name).toMatch(/^n8n-nodes-/);
    expect(pkg.keywords).toContain('n8n-community-node-package');
    expect(pkg.n8n.nodes.sort()).toEqual([paths.actionJs, paths.triggerJs].sort());
    expect(pkg.n8n.credentials).toEqual([paths.credentialJs]);
    expect(pkg).not.toHaveProperty('dependencies');
    expect(Object.keys(pkg.peerDependencies)).toEqual(['n8n-workflow']);
    expect(pkg.files).toEqual(['dist']);
    for (const node of [ACTION_NODE, TRIGGER_NODE]) {
      expect(files.get(`dist/nodes/${node.className}/${node.className}.node.json`)).toMatchObject({ node: `${pkg.name}.${node.name}` });
      expect(String(files.get(`dist/nodes/${node.className}/pagerly.svg`))).toMatch(/^<svg /);
    }
  });

  it('offers every action and search of shared/operations once, under its resource, with the same fields', () => {
    const offered = properties.filter((p) => p.name === 'operation').flatMap((p) => p.options!.map((o) => `${p.displayOptions!.show.resource![0]}/${o.value}`));
    const shownValue = (op: (typeof nodeOperations)[number]) => `${n8nNodeName(op).resource}/${n8nNodeName(op).operation}`;
    expect(offered.sort()).toEqual(nodeOperations.map(shownValue).sort());
    expect(nodeOperations.map((op) => op.id).sort()).toEqual(
      operations
        .filter((op) => op.kind === 'action' || op.kind === 'search')
        .map((op) => op.id)
        .sort(),
    );
    for (const op of nodeOperations) {
      const fields = shownFor(n8nNodeName(op).resource, n8nNodeName(op).operation);
      expect({ op: op.id, fields: fields.map((f) => [f.name, Boolean(f.required)]) }).toEqual({
        op: op.id,
        fields: op.inputFields.map((f) => [f.key, f.required]),
      });
    }
  });

  it('fills every team field from the loadOptions method, and gives optional dropdowns an empty choice', () => {
    for (const op of nodeOperations) {
      for (const field of op.inputFields) {
        const property = shownFor(n8nNodeName(op).resource, n8nNodeName(op).operation).find((p) => p.name === field.key)!;
        if (field.dynamic === 'team') {
          expect(property).toMatchObject({ type: 'options', typeOptions: { loadOptionsMethod: TEAM_OPTIONS_METHOD } });
          expect(property.displayName.endsWith(DYNAMIC_LABEL_SUFFIX)).toBe(true);
        } else if (field.choices) {
          expect(property.options!.map((o) => o.value).sort()).toEqual(
            [...field.choices.map((c) => c.value), ...(field.required ? [] : [UNSET_CHOICE.value])].sort(),
          );
        }
      }
    }
    expect(Object.keys(actionNodeDescription())).toContain('credentials');
  });

  it('has a credential with the API key as a password field, tested against the key check, sent as X-APIKEY', () => {
    const credential = credentialDescription();
    expect(credential.name).toBe(CREDENTIAL.name);
    expect(credential.properties[0]).toMatchObject({ name: connection.apiKeyField.key, typeOptions: { password: true }, required: true });
    expect(credential.test.request.url).toBe(endpoints[connection.testEndpoint].path);
    expect(Object.keys(credential.authenticate.properties.headers)).toEqual(['X-APIKEY']);
  });

  it("has a polling trigger with no inputs, no webhook and the hook operation's fields, whose team dropdown it can fill", () => {
    const trigger = triggerNodeDescription();
    expect(trigger.name.endsWith('Trigger')).toBe(true);
    expect(trigger.inputs).toEqual([]);
    expect(trigger.polling).toBe(true);
    expect(Object.keys(trigger)).not.toContain('webhooks');
    expect(trigger.properties.map((p) => p.name)).toEqual(hookOperation().inputFields.map((f) => f.key));
    const source = String(files.get(paths.triggerSource));
    expect(source).toContain('async poll(this: IPollFunctions)');
    expect(source).toContain(`async ${TEAM_OPTIONS_METHOD}(this: ILoadOptionsFunctions)`);
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
    expect(titleCase('Create or update incident')).toBe('Create or Update Incident');
    expect(sentenceCase('Create or Update Incident')).toBe('Create or update incident');
    expect(sentenceCase('Find Incident ID')).toBe('Find incident ID');
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
    const texts = sources(root)
      .map((file) => ({ file: file.slice(root.length), text: readFileSync(file, 'utf8') }))
      .filter(({ file }) => file !== 'operation-names.ts');
    // Words that are also n8n's or the descriptions' own vocabulary (a property's `name`, the
    // `dynamic: 'team'` kind of a field) cannot tell a hard-coded field from the generic word.
    // `incident` is also one of the package's npm keywords.
    const vocabulary = new Set(['name', 'description', 'id', 'team', 'incident']);
    const ownNames = (op: (typeof operations)[number]) =>
      Object.values(n8nName(op)).filter((value) => value !== TRIGGER_NODE.name && value !== TEAM_OPTIONS_METHOD);
    const names = operations.flatMap((op) => [op.id, ...ownNames(op), ...op.inputFields.map((f) => f.key)]).filter((name) => !vocabulary.has(name));
    const found = texts.flatMap(({ file, text }) =>
      names.filter((name) => new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`).test(text)).map((name) => `${file}: ${name}`),
    );
    expect(found).toEqual([]);
  });
});
