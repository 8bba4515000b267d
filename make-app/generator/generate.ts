import { operations } from '../../shared/operations/index.ts';
import type { ActionOperation, SearchOperation } from '../../shared/operations/types.ts';
import { base } from './base.ts';
import { connectionFiles } from './connection.ts';
import { actionModule, instantTriggerModule, makeLabelOf, searchModule, type ModuleFiles } from './modules.ts';
import { MANIFEST, type CodeKey, type ComponentMetadata, type ComponentType, type Manifest } from '../manifest.ts';
import { codeFilePath, CONNECTION, TEAM_RPC, UNIVERSAL_MODULE, WEBHOOK } from './names.ts';
import { readme } from './readme.ts';
import { teamRpcFiles } from './rpc.ts';
import { universalModule } from './universal-module.ts';
import { webhookFiles } from './webhook.ts';
import { onCallChanged } from '../../shared/operations/on-call-changed.ts';
import { teamList } from '../../shared/operations/team-list.ts';

/** The generated app: file path (relative to the app folder) → JSON value, or text for README.md. */
export type MakeAppFiles = Map<string, unknown>;

// codeFiles key → file suffix, as Make's editor names them.
const SUFFIX = {
  communication: 'communication', params: 'params', staticParams: 'static-params', mappableParams: 'mappable-params',
  interface: 'interface', samples: 'samples', attach: 'attach', detach: 'detach',
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
    label, description, moduleType, ...(actionCrud ? { actionCrud } : {}), connection: CONNECTION,
    ...(moduleType === 'instant_trigger' ? { webhook: WEBHOOK } : {}), codeFiles,
  };
}

/** Every file of the Make app, from the shared descriptions. Same input, same files, same order. */
export function generateMakeApp(): MakeAppFiles {
  const files: MakeAppFiles = new Map();
  files.set('general/base.iml.json', base());
  files.set('general/common.json', {});
  files.set('README.md', readme());

  const modules: Record<string, ModuleFiles> = { [onCallChanged.makeName]: instantTriggerModule() };
  for (const operation of operations) {
    if (operation.kind === 'action') modules[operation.makeName] = actionModule(operation as ActionOperation);
    if (operation.kind === 'search') modules[operation.makeName] = searchModule(operation as SearchOperation);
  }
  modules[UNIVERSAL_MODULE] = universalModule();

  const groups = [
    { label: 'On call', modules: [onCallChanged.makeName, ...operations.filter((op) => op.key === 'find_on_call_users').map((op) => op.makeName)] },
    { label: 'Incidents', modules: operations.filter((op) => op.kind !== 'list' && op.key.includes('incident')).map((op) => op.makeName) },
    { label: 'Directory', modules: operations.filter((op) => op.kind !== 'list' && op.key.includes('directory')).map((op) => op.makeName) },
    { label: 'Other', modules: [UNIVERSAL_MODULE] },
  ];
  files.set('modules/groups.json', groups);

  const manifest: Manifest = {
    fileVersion: 1,
    generalCodeFiles: { base: 'general/base.iml.json', common: 'general/common.json', groups: 'modules/groups.json', readme: 'README.md' },
    components: {
      connection: { [CONNECTION]: { label: 'Pagerly', connectionType: 'basic', codeFiles: addComponent(files, 'connection', CONNECTION, connectionFiles()) } },
      webhook: { [WEBHOOK]: { label: makeLabelOf(onCallChanged), webhookType: 'web', connection: CONNECTION, codeFiles: addComponent(files, 'webhook', WEBHOOK, webhookFiles()) } },
      rpc: { [TEAM_RPC]: { label: makeLabelOf(teamList), connection: CONNECTION, codeFiles: addComponent(files, 'rpc', TEAM_RPC, teamRpcFiles()) } },
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
