// From an app folder to the ordered list of deploy steps, in Make's deploy order: the app and
// its general codes, then connections, RPCs, webhooks, modules (each one created or updated,
// then its sections set). Pure: it reads nothing and calls nothing.
import type {
  SDKAppSectionType,
  SDKConnectionSectionType,
  SDKModuleSectionType,
  SDKRPCSectionType,
  SDKWebhookSectionType,
} from '@makehq/sdk';
import type { AppFolder, CodeFile, Component, IdMapping } from './app-folder.ts';
import { apiPaths, callText } from './api-paths.ts';
import { remoteOf } from './id-mapping.ts';
import { MODULE_TYPE_IDS, sectionOf, type ComponentType } from './sections.ts';
import type { DeploySettings } from './settings.ts';

export interface AppCreateBody {
  name: string;
  label: string;
  description?: string;
  theme: string;
  language: 'en';
  audience: 'global';
  private: true;
}

export type Step =
  | { kind: 'app'; create: AppCreateBody }
  | { kind: 'app-section'; section: Extract<SDKAppSectionType, 'base' | 'groups'>; file: CodeFile }
  | { kind: 'app-common'; file: CodeFile }
  | { kind: 'app-readme'; file: CodeFile }
  | { kind: 'connection'; id: string; label: string; type: 'basic' | 'oauth' }
  | { kind: 'rpc'; id: string; label: string; connection?: string; altConnection?: string }
  | { kind: 'webhook'; id: string; label: string; type: 'web' | 'web-shared'; connection?: string; altConnection?: string }
  | {
      kind: 'module';
      id: string;
      label: string;
      description: string;
      moduleType: string;
      typeId: number;
      connection?: string;
      altConnection?: string;
      /** Local webhook ID (instant triggers). */
      webhook?: string;
      crud?: 'create' | 'read' | 'update' | 'delete';
      /** Picks the server-side template of a universal module; the editor always sends 'Universal'. */
      subtype?: 'Universal';
    }
  | SectionStep;

export type SectionStep =
  | { kind: 'section'; component: 'connection'; id: string; section: SDKConnectionSectionType | 'common'; file: CodeFile }
  | { kind: 'section'; component: 'rpc'; id: string; section: SDKRPCSectionType; file: CodeFile }
  | { kind: 'section'; component: 'webhook'; id: string; section: SDKWebhookSectionType; file: CodeFile }
  | { kind: 'section'; component: 'module'; id: string; section: SDKModuleSectionType; file: CodeFile };

export interface Plan {
  steps: Step[];
  /** Components the idMapping deliberately leaves unpaired (remote: null), not deployed. */
  skipped: string[];
}

const optional = <K extends string>(key: K, value: string | null | undefined): { [P in K]?: string } =>
  (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string };

export function planDeploy(folder: AppFolder, settings: Pick<DeploySettings, 'appName' | 'appLabel' | 'appDescription' | 'appTheme'>, mapping: IdMapping): Plan {
  const steps: Step[] = [];
  const skipped: string[] = [];

  steps.push({
    kind: 'app',
    create: {
      name: settings.appName,
      label: settings.appLabel,
      ...(settings.appDescription ? { description: settings.appDescription } : {}),
      theme: settings.appTheme,
      language: 'en',
      audience: 'global',
      private: true,
    },
  });
  const { base, groups, common, readme } = folder.general;
  if (base) steps.push({ kind: 'app-section', section: 'base', file: base });
  if (groups) steps.push({ kind: 'app-section', section: 'groups', file: groups });
  if (common) steps.push({ kind: 'app-common', file: common });
  if (readme) steps.push({ kind: 'app-readme', file: readme });

  const deployable = (component: Component): boolean => {
    if (remoteOf(mapping, component.type, component.id) !== null) return true;
    skipped.push(`${component.type} ${component.id} (its idMapping entry has "remote": null)`);
    return false;
  };

  for (const component of folder.connections.filter(deployable)) {
    steps.push({
      kind: 'connection',
      id: component.id,
      label: component.meta.label ?? component.id,
      type: component.meta.connectionType ?? 'basic',
    });
    steps.push(...sectionSteps(component));
  }
  for (const component of folder.rpcs.filter(deployable)) {
    const { meta } = component;
    steps.push({
      kind: 'rpc',
      id: component.id,
      label: meta.label ?? component.id,
      ...optional('connection', meta.connection),
      ...optional('altConnection', meta.altConnection),
    });
    steps.push(...sectionSteps(component));
  }
  for (const component of folder.webhooks.filter(deployable)) {
    const { meta } = component;
    steps.push({
      kind: 'webhook',
      id: component.id,
      label: meta.label ?? component.id,
      type: meta.webhookType ?? 'web',
      ...optional('connection', meta.connection),
      ...optional('altConnection', meta.altConnection),
    });
    steps.push(...sectionSteps(component));
  }
  for (const component of folder.modules.filter(deployable)) {
    const { meta } = component;
    const moduleType = meta.moduleType ?? '';
    steps.push({
      kind: 'module',
      id: component.id,
      label: meta.label ?? component.id,
      description: meta.description ?? meta.label ?? component.id,
      moduleType,
      typeId: MODULE_TYPE_IDS[moduleType]!,
      ...optional('connection', meta.connection),
      ...optional('altConnection', meta.altConnection),
      ...(moduleType === 'instant_trigger' ? optional('webhook', meta.webhook) : {}),
      ...(moduleType === 'action' && meta.actionCrud ? { crud: meta.actionCrud } : {}),
      ...(moduleType === 'universal' ? { subtype: 'Universal' as const } : {}),
    });
    steps.push(...sectionSteps(component));
  }
  return { steps, skipped };
}

/** A component's sections in a fixed order (api first), whatever the order in makecomapp.json. */
function sectionSteps(component: Component): SectionStep[] {
  const order = ['communication', 'params', 'staticParams', 'mappableParams', 'interface', 'samples', 'epoch', 'attach', 'detach', 'common', 'scope', 'requiredScope', 'scopeList', 'defaultScope', 'installSpec', 'installDirectives'];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return [...component.codes]
    .sort((a, b) => rank(a.key) - rank(b.key))
    .map((file) => {
      const { id } = component;
      switch (component.type) {
        case 'connection':
          return { kind: 'section', component: 'connection', id, section: sectionOf('connection', file.key)!.section, file };
        case 'rpc':
          return { kind: 'section', component: 'rpc', id, section: sectionOf('rpc', file.key)!.section, file };
        case 'webhook':
          return { kind: 'section', component: 'webhook', id, section: sectionOf('webhook', file.key)!.section, file };
        case 'module':
          return { kind: 'section', component: 'module', id, section: sectionOf('module', file.key)!.section, file };
      }
    });
}

/** Remote names as far as they are known; `undefined` for a connection/webhook not created yet. */
export type NameOf = (type: 'connection' | 'webhook', local: string) => string | undefined;

const typeLabel: Record<ComponentType, string> = { connection: 'connection', rpc: 'RPC', webhook: 'webhook', module: 'module' };

/** What a step is, for progress lines and errors: `connection pagerly`, `module createIncident api ← file`. */
export function stepTitle(step: Step): string {
  switch (step.kind) {
    case 'app':
      return `app ${step.create.name}`;
    case 'app-section':
      return `app ${step.section} ← ${step.file.path}`;
    case 'app-common':
      return `app common ← ${step.file.path}`;
    case 'app-readme':
      return `app readme ← ${step.file.path}`;
    case 'section':
      return `${typeLabel[step.component]} ${step.id} ${step.section} ← ${step.file.path}`;
    default:
      return `${typeLabel[step.kind]} ${step.id}`;
  }
}

/** The request(s) a step makes, as the dry run shows them before anything is known remotely. */
export function plannedCalls(step: Step, app: { name: string; version: number }, nameOf: NameOf): string {
  const { name, version } = app;
  const remote = (type: 'connection' | 'webhook', local: string) => nameOf(type, local) ?? `<new ${type} ${local}>`;
  switch (step.kind) {
    case 'app':
      return `${callText({ method: 'GET', path: apiPaths.app(name, version) })}; if it does not exist: ${callText({ method: 'POST', path: apiPaths.apps() })}`;
    case 'app-section':
      return callText({ method: 'PUT', path: apiPaths.appSection(name, version, step.section) });
    case 'app-common':
      return callText({ method: 'PUT', path: apiPaths.appSection(name, version, 'common') });
    case 'app-readme':
      return callText({ method: 'PUT', path: apiPaths.appSection(name, version, 'readme') });
    case 'connection':
    case 'webhook': {
      const known = nameOf(step.kind, step.id);
      if (known) return `none: already deployed as ${known} (origins[0].idMapping)`;
      const list = step.kind === 'connection' ? apiPaths.connections(name) : apiPaths.webhooks(name);
      return `${callText({ method: 'POST', path: list })}; if the app already exists, first ${callText({ method: 'GET', path: list })} to reuse one labelled "${step.label}"`;
    }
    case 'rpc':
      return `${callText({ method: 'POST', path: apiPaths.rpcs(name, version) })}, or ${callText({ method: 'PATCH', path: apiPaths.rpc(name, version, step.id) })} if it exists`;
    case 'module':
      return `${callText({ method: 'POST', path: apiPaths.modules(name, version) })}, or ${callText({ method: 'PATCH', path: apiPaths.module(name, version, step.id) })} if it exists`;
    case 'section':
      switch (step.component) {
        case 'connection':
          return callText({ method: 'PUT', path: apiPaths.connectionSection(remote('connection', step.id), step.section) });
        case 'webhook':
          return callText({ method: 'PUT', path: apiPaths.webhookSection(remote('webhook', step.id), step.section) });
        case 'rpc':
          return callText({ method: 'PUT', path: `${apiPaths.rpc(name, version, step.id)}/${step.section}` });
        case 'module':
          return callText({ method: 'PUT', path: `${apiPaths.module(name, version, step.id)}/${step.section}` });
      }
  }
}
