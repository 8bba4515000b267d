// makecomapp.json, the manifest of a Make custom app in the local-development layout of Make's
// VS Code editor, typed once after Make's schema (makecomapp.schema.json in make-sdk-schemas;
// test/make/manifest.test.ts holds these types to it). The generator writes it, the runner
// reads it, the deploy reads it and writes its `origins`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST = 'makecomapp.json';

export const COMPONENT_TYPES = ['connection', 'webhook', 'module', 'rpc', 'function', 'endpoint'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const GENERAL_CODES = ['base', 'common', 'groups', 'readme'] as const;
export type GeneralCode = (typeof GENERAL_CODES)[number];

/** A component's code files by kind (the schema's ComponentCodeType). */
export const CODE_KEYS = [
  'attach',
  'code',
  'common',
  'communication',
  'context',
  'defaultScope',
  'detach',
  'epoch',
  'inputParameters',
  'installDirectives',
  'installSpec',
  'interface',
  'mappableParams',
  'outputParameters',
  'params',
  'requiredScope',
  'samples',
  'scope',
  'scopeList',
  'staticParams',
  'test',
  'update',
] as const;
export type CodeKey = (typeof CODE_KEYS)[number];

export const MODULE_TYPES = ['action', 'instant_trigger', 'responder', 'search', 'trigger', 'universal'] as const;
export type ModuleType = (typeof MODULE_TYPES)[number];

/** Paths relative to the app folder; `null` leaves that code out of local development. */
export type CodeFiles = Partial<Record<CodeKey, string | null>>;

export interface ComponentMetadata {
  label?: string;
  description?: string;
  connectionType?: 'basic' | 'oauth';
  webhookType?: 'web' | 'web-shared';
  moduleType?: ModuleType;
  actionCrud?: 'create' | 'read' | 'update' | 'delete' | null;
  /** Local ids of the connections a module, webhook or RPC uses. */
  connection?: string | null;
  altConnection?: string | null;
  /** Local id of an instant trigger's webhook. */
  webhook?: string | null;
  attachedAccounts?: string[];
  annotations?: Partial<Record<'destructiveHint' | 'idempotentHint' | 'openWorldHint' | 'readOnlyHint', boolean>>;
  codeFiles: CodeFiles;
}

/** One local component paired with its remote one; `null` on either side leaves it unpaired. */
export interface IdMappingItem {
  local: string | null;
  remote: string | null;
  localDeleted?: boolean;
  nonOwnedByApp?: boolean;
}
export type IdMapping = Record<ComponentType, IdMappingItem[]>;

/** A Make account's copy of the app: where it is, and which remote component is which local one. */
export interface Origin {
  label?: string;
  /** e.g. `https://eu1.make.com/api`. */
  baseUrl: string;
  appId: string;
  appVersion: number;
  /** Where Make's editor reads the token from; never the token itself. */
  apikeyFile: string;
  idMapping?: IdMapping;
}

export interface Manifest {
  fileVersion: number;
  generalCodeFiles: Record<GeneralCode, string | null>;
  /** `null` marks a reserved id that is not implemented yet. */
  components: Record<ComponentType, Record<string, ComponentMetadata | null>>;
  origins: Origin[];
}

export const emptyIdMapping = (): IdMapping => ({ connection: [], webhook: [], module: [], rpc: [], function: [], endpoint: [] });

export const readManifest = (folder: string): Manifest => JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as Manifest;
