// Which REST section of Make's SDK-apps API each codeFiles key of makecomapp.json goes to
// (the VS Code editor's `apiCodeType` table), and the API's `typeId` of each module type.
import type { SDKConnectionSectionType, SDKModuleSectionType, SDKRPCSectionType, SDKWebhookSectionType } from '@makehq/sdk';

/** The component types make:deploy deploys, in Make's deploy order (references must exist first). */
export type ComponentType = 'connection' | 'rpc' | 'webhook' | 'module';

interface SectionTarget<S extends string> {
  /** The REST section the file's text is PUT to. */
  section: S;
  /** A `common` file: a JSON object sent with setCommon instead of a section. */
  common?: true;
}

const connectionSections: Record<string, SectionTarget<SDKConnectionSectionType | 'common'>> = {
  communication: { section: 'api' },
  params: { section: 'parameters' },
  common: { section: 'common', common: true },
  scopeList: { section: 'scopes' },
  defaultScope: { section: 'scope' },
  installSpec: { section: 'installSpec' },
  installDirectives: { section: 'install' },
};

const rpcSections: Record<string, SectionTarget<SDKRPCSectionType>> = {
  communication: { section: 'api' },
  params: { section: 'parameters' },
};

// `update` (webhook update directive) exists in the editor but not in the SDK's section
// types; make:deploy refuses it rather than guess, so a generator should leave it null.
const webhookSections: Record<string, SectionTarget<SDKWebhookSectionType>> = {
  communication: { section: 'api' },
  params: { section: 'parameters' },
  attach: { section: 'attach' },
  detach: { section: 'detach' },
  requiredScope: { section: 'scope' },
};

const moduleSections: Record<string, SectionTarget<SDKModuleSectionType>> = {
  communication: { section: 'api' },
  staticParams: { section: 'parameters' },
  mappableParams: { section: 'expect' },
  interface: { section: 'interface' },
  samples: { section: 'samples' },
  epoch: { section: 'epoch' },
  scope: { section: 'scope' },
};

const byType = { connection: connectionSections, rpc: rpcSections, webhook: webhookSections, module: moduleSections };

export function sectionOf(type: 'connection', key: string): SectionTarget<SDKConnectionSectionType | 'common'> | undefined;
export function sectionOf(type: 'rpc', key: string): SectionTarget<SDKRPCSectionType> | undefined;
export function sectionOf(type: 'webhook', key: string): SectionTarget<SDKWebhookSectionType> | undefined;
export function sectionOf(type: 'module', key: string): SectionTarget<SDKModuleSectionType> | undefined;
export function sectionOf(type: ComponentType, key: string): SectionTarget<string> | undefined;
export function sectionOf(type: ComponentType, key: string): SectionTarget<string> | undefined {
  const table: Record<string, SectionTarget<string>> = byType[type];
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** moduleType → the API's typeId (VS Code editor, module-types-naming.ts). */
export const MODULE_TYPE_IDS: Readonly<Record<string, number>> = {
  trigger: 1,
  action: 4,
  search: 9,
  instant_trigger: 10,
  responder: 11,
  universal: 12,
};
