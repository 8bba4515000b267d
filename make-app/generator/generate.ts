import type { Endpoint } from '../../shared/catalog/endpoint.ts';
import { endpoints as allEndpoints } from '../../shared/catalog/endpoints.ts';
import { connection } from '../../shared/operations/connection.ts';
import { operations as allOperations } from '../../shared/operations/index.ts';
import type { Operation } from '../../shared/operations/types.ts';
import { base } from './base.ts';
import { connectionFiles } from './connection.ts';
import { actionModule, instantTriggerModule, searchModule, type ModuleFiles } from './modules.ts';
import { makeName, makeNames } from '../operation-names.ts';
import { MANIFEST, type CodeKey, type ComponentMetadata, type ComponentType, type Manifest } from '../manifest.ts';
import { codeFilePath, CONNECTION, TEAM_RPC, UNIVERSAL_MODULE, WEBHOOK } from './names.ts';
import { readme } from './readme.ts';
import { teamRpcFiles } from './team-rpc.ts';
import { universalModule } from './universal-module.ts';
import { webhookFiles } from './webhook.ts';

/** The generated app: file path (relative to the app folder) → JSON value, or text for README.md. */
export type MakeAppFiles = Map<string, unknown>;

// codeFiles key → file suffix, as Make's editor names them.
const SUFFIX = {
  communication: 'communication',
  params: 'params',
  staticParams: 'static-params',
  mappableParams: 'mappable-params',
  interface: 'interface',
  samples: 'samples',
  attach: 'attach',
  detach: 'detach',
} as const satisfies Partial<Record<CodeKey, string>>;
type GeneratedCode = keyof typeof SUFFIX;

/** Adds one component's code files and returns its `codeFiles` entry for makecomapp.json. */
function addComponent(files: MakeAppFiles, type: ComponentType, id: string, codes: Partial<Record<GeneratedCode, unknown>>): ComponentMetadata['codeFiles'] {
  const codeFiles: ComponentMetadata['codeFiles'] = {};
  for (const [code, content] of Object.entries(codes) as [GeneratedCode, unknown][]) {
    const path = codeFilePath(type, id, SUFFIX[code]);
    files.set(path, content);
    codeFiles[code] = path;
  }
  return codeFiles;
}

function moduleEntry(files: MakeAppFiles, id: string, module: ModuleFiles): ComponentMetadata {
  const { moduleType, actionCrud, label, description, communication, staticParams, mappableParams, samples } = module;
  const codeFiles = addComponent(files, 'module', id, { communication, staticParams, mappableParams, interface: module.interface, samples });
  return {
    label,
    description,
    moduleType,
    ...(actionCrud ? { actionCrud } : {}),
    connection: CONNECTION,
    ...(moduleType === 'instant_trigger' ? { webhook: WEBHOOK } : {}),
    codeFiles,
  };
}

/** What the app is made from: the shared descriptions, unless a test gives others. */
export interface MakeAppSource {
  readonly operations?: readonly Operation[];
  readonly endpoints?: Readonly<Record<string, Endpoint>>;
}

/** One module per hook, action and search; the team list is an RPC (rpc.ts), not a module. */
function moduleOf(operation: Operation, endpoints: Readonly<Record<string, Endpoint>>): ModuleFiles | undefined {
  const endpointOf = (key: string) => {
    const endpoint = endpoints[key];
    if (!endpoint) throw new Error(`Operation "${operation.id}" calls the endpoint "${key}", which the catalog does not have.`);
    return endpoint;
  };
  if (operation.kind === 'hook') return instantTriggerModule(operation);
  if (operation.kind === 'action') return actionModule(operation, endpointOf);
  if (operation.kind === 'search') return searchModule(operation, endpointOf(operation.endpoint));
  return undefined;
}

/**
 * Where an operation comes in its group: triggers first, then read (list or search, then get),
 * create, update, delete, as Make's Groups page orders modules ("Ordered by RCUD logic (read,
 * create, update, delete)", its example "List forms, Get a form, Create a form, Update a form,
 * Delete a form": developers.make.com/custom-apps-documentation/best-practices/naming-conventions/groups).
 */
function rcudRank(operation: Operation): number {
  if (operation.kind === 'hook') return 0;
  if (operation.kind === 'search') return operation.results === 'single' ? 2 : 1;
  if (operation.kind === 'action') return { create: 3, update: 4, delete: 5 }[operation.effect];
  return 6;
}

/** The group retiring modules are listed in (shared/operations/retiring.ts). */
export const DEPRECATED_GROUP = 'Deprecated';

/** Make's module groups: each operation under its `group`, groups in the order of their first operation, modules in RCUD order; the universal module last. */
function moduleGroups(operations: readonly Operation[]): { label: string; modules: string[] }[] {
  const groups = new Map<string, Operation[]>();
  for (const operation of operations) {
    if (operation.kind === 'list') continue;
    // Retiring modules are listed apart, after the operations' groups, so nothing new is built on them by accident.
    const group = operation.retiring ? DEPRECATED_GROUP : operation.group;
    groups.set(group, [...(groups.get(group) ?? []), operation]);
  }
  const deprecated = groups.get(DEPRECATED_GROUP);
  if (deprecated) {
    groups.delete(DEPRECATED_GROUP);
    groups.set(DEPRECATED_GROUP, deprecated);
  }
  const ordered = [...groups].map(([label, members]) => ({
    label,
    // Array.prototype.sort is stable: operations of one rank keep the catalog's order.
    modules: [...members].sort((a, b) => rcudRank(a) - rcudRank(b)).map((operation) => makeName(operation).name),
  }));
  return [...ordered, { label: 'Other', modules: [UNIVERSAL_MODULE] }];
}

/** Every file of the Make app, from the shared descriptions. Same input, same files, same order. */
export function generateMakeApp({ operations = allOperations, endpoints = allEndpoints }: MakeAppSource = {}): MakeAppFiles {
  const files: MakeAppFiles = new Map();
  files.set('general/base.iml.json', base());
  files.set('general/common.json', {});
  files.set('README.md', readme(operations));

  const modules: Record<string, ModuleFiles> = {};
  for (const operation of operations) {
    const module = moduleOf(operation, endpoints);
    if (module) modules[makeName(operation).name] = module;
  }
  modules[UNIVERSAL_MODULE] = universalModule();
  files.set('modules/groups.json', moduleGroups(operations));

  const manifest: Manifest = {
    fileVersion: 1,
    generalCodeFiles: { base: 'general/base.iml.json', common: 'general/common.json', groups: 'modules/groups.json', readme: 'README.md' },
    components: {
      connection: {
        [CONNECTION]: { label: connection.label, connectionType: 'basic', codeFiles: addComponent(files, 'connection', CONNECTION, connectionFiles()) },
      },
      webhook: {
        [WEBHOOK]: {
          label: makeNames.onCallChanged.label,
          webhookType: 'web',
          connection: CONNECTION,
          codeFiles: addComponent(files, 'webhook', WEBHOOK, webhookFiles()),
        },
      },
      rpc: { [TEAM_RPC]: { label: makeNames.listTeams.label, connection: CONNECTION, codeFiles: addComponent(files, 'rpc', TEAM_RPC, teamRpcFiles()) } },
      module: Object.fromEntries(Object.entries(modules).map(([id, module]) => [id, moduleEntry(files, id, module)])),
      function: {},
      endpoint: {},
    },
    // From make-app/origins.json at build time (build-make-app.ts): the deploy keeps Make's names there.
    origins: [],
  };
  files.set(MANIFEST, manifest);
  return files;
}
