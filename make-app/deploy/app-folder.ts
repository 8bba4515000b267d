// Reads a Make custom app folder in the local-development layout of Make's VS Code editor:
// makecomapp.json plus the code files it names. Checks that it can be deployed, reads no network.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sectionOf, MODULE_TYPE_IDS, type ComponentType } from './sections.ts';

export const MANIFEST = 'makecomapp.json';

export interface IdMappingItem {
  local: string | null;
  remote: string | null;
  localDeleted?: boolean;
  nonOwnedByApp?: boolean;
}
export type IdMapping = Record<'connection' | 'endpoint' | 'function' | 'module' | 'rpc' | 'webhook', IdMappingItem[]>;

export interface Origin {
  label?: string;
  baseUrl: string;
  appId: string;
  appVersion: number;
  apikeyFile: string;
  idMapping?: IdMapping;
}

export interface ComponentMetadata {
  label?: string;
  description?: string;
  connectionType?: 'basic' | 'oauth';
  webhookType?: 'web' | 'web-shared';
  moduleType?: string;
  actionCrud?: 'create' | 'read' | 'update' | 'delete' | null;
  connection?: string | null;
  altConnection?: string | null;
  webhook?: string | null;
  codeFiles: Record<string, string | null>;
}

/** The parsed makecomapp.json; unknown keys are kept as they are for the write-back. */
export interface Manifest {
  fileVersion: number;
  generalCodeFiles: Record<'base' | 'common' | 'groups' | 'readme', string | null>;
  components: Record<string, Record<string, ComponentMetadata | null>>;
  origins?: Origin[];
  [key: string]: unknown;
}

/** One code file to deploy: its codeFiles key, the path as written in makecomapp.json, its text. */
export interface CodeFile {
  key: string;
  path: string;
  text: string;
}

export interface Component {
  type: ComponentType;
  id: string;
  meta: ComponentMetadata;
  codes: CodeFile[];
}

export interface AppFolder {
  dir: string;
  manifestPath: string;
  manifest: Manifest;
  /** The manifest file's own indentation, kept when the deploy writes it back. */
  indent: string;
  general: Partial<Record<'base' | 'common' | 'groups' | 'readme', CodeFile>>;
  connections: Component[];
  rpcs: Component[];
  webhooks: Component[];
  modules: Component[];
}

/** The folder cannot be deployed as it is; `problems` says every reason found. */
export class AppFolderError extends Error {
  readonly problems: readonly string[];
  readonly missing: boolean;
  constructor(problems: readonly string[], { missing = false } = {}) {
    super(problems.join('\n'));
    this.name = 'AppFolderError';
    this.problems = problems;
    this.missing = missing;
  }
}

const COMPONENT_TYPES = ['connection', 'webhook', 'module', 'rpc', 'function', 'endpoint'] as const;
const GENERAL_CODES = ['base', 'common', 'groups', 'readme'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readAppFolder(dirArg: string): AppFolder {
  const dir = resolve(dirArg);
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new AppFolderError([`The app folder ${dirArg} does not exist. Run \`npm run build\` first to generate it (or pass --app-dir <folder>).`], { missing: true });
  }
  if (!existsSync(manifestPath)) {
    throw new AppFolderError([`${join(dirArg, MANIFEST)} does not exist. Run \`npm run build\` first to generate the Make app (or pass --app-dir <folder>).`], { missing: true });
  }
  const raw = readFileSync(manifestPath, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new AppFolderError([`${MANIFEST} is not valid JSON: ${(error as Error).message}`]);
  }
  const problems: string[] = [];
  if (!isObject(parsed)) throw new AppFolderError([`${MANIFEST} must hold a JSON object.`]);
  if (!isObject(parsed['generalCodeFiles'])) problems.push(`${MANIFEST} has no "generalCodeFiles" object.`);
  if (!isObject(parsed['components'])) problems.push(`${MANIFEST} has no "components" object.`);
  if (parsed['origins'] !== undefined && !Array.isArray(parsed['origins'])) problems.push(`${MANIFEST}: "origins" must be an array.`);
  if (problems.length > 0) throw new AppFolderError(problems);
  const manifest = parsed as Manifest;

  const read = (owner: string, key: string, path: string): CodeFile | undefined => {
    const file = resolve(dir, path);
    if (!existsSync(file) || !statSync(file).isFile()) {
      problems.push(`${owner}: codeFiles.${key} names ${path}, which does not exist in the app folder.`);
      return undefined;
    }
    return { key, path, text: readFileSync(file, 'utf8') };
  };

  const general: AppFolder['general'] = {};
  for (const key of GENERAL_CODES) {
    const path = manifest.generalCodeFiles[key];
    if (path === undefined) problems.push(`${MANIFEST}: generalCodeFiles.${key} is missing (use null to skip it).`);
    if (typeof path !== 'string') continue;
    const code = read('generalCodeFiles', key, path);
    if (code) general[key] = code;
  }
  if (general.common) checkJsonObject(general.common, 'generalCodeFiles', problems);

  const lists: Record<ComponentType, Component[]> = { connection: [], rpc: [], webhook: [], module: [] };
  for (const type of COMPONENT_TYPES) {
    const entries = manifest.components[type];
    if (entries === undefined) {
      problems.push(`${MANIFEST}: components.${type} is missing (use {} when there is none).`);
      continue;
    }
    if (!isObject(entries)) {
      problems.push(`${MANIFEST}: components.${type} must be an object.`);
      continue;
    }
    for (const [id, meta] of Object.entries(entries)) {
      if (meta === null) continue; // a reserved, not yet implemented component
      const owner = `${type} ${id}`;
      if (type === 'function' || type === 'endpoint') {
        problems.push(`${owner}: ${type}s are not deployed by make:deploy; remove it from ${MANIFEST} or deploy it with Make's VS Code editor.`);
        continue;
      }
      if (!isObject(meta) || !isObject(meta.codeFiles)) {
        problems.push(`${owner}: needs a "codeFiles" object.`);
        continue;
      }
      const codes: CodeFile[] = [];
      for (const [key, path] of Object.entries(meta.codeFiles)) {
        if (path === null) continue;
        if (typeof path !== 'string') {
          problems.push(`${owner}: codeFiles.${key} must be a path or null.`);
          continue;
        }
        const target = sectionOf(type, key);
        if (!target) {
          problems.push(`${owner}: codeFiles.${key} is not deployed by make:deploy; set it to null.`);
          continue;
        }
        const code = read(owner, key, path);
        if (!code) continue;
        if (target.common) checkJsonObject(code, owner, problems);
        codes.push(code);
      }
      lists[type].push({ type, id, meta, codes });
    }
  }
  checkComponents(lists, problems);
  if (problems.length > 0) throw new AppFolderError(problems);

  return {
    dir,
    manifestPath,
    manifest,
    indent: indentOf(raw),
    general,
    connections: lists.connection,
    rpcs: lists.rpc,
    webhooks: lists.webhook,
    modules: lists.module,
  };
}

function checkJsonObject(code: CodeFile, owner: string, problems: string[]): void {
  let value: unknown;
  try {
    value = JSON.parse(code.text);
  } catch (error) {
    problems.push(`${owner}: ${code.path} must be plain JSON (no comments): ${(error as Error).message}`);
    return;
  }
  if (!isObject(value)) problems.push(`${owner}: ${code.path} must hold a JSON object.`);
}

/** The checks Make's editor makes before it deploys: types present, references resolve. */
function checkComponents(lists: Record<ComponentType, Component[]>, problems: string[]): void {
  const ids = (list: Component[]) => new Set(list.map((component) => component.id));
  const connections = ids(lists.connection);
  const webhooks = ids(lists.webhook);
  const checkRef = (owner: string, field: string, value: unknown, known: Set<string>, kind: string) => {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || !known.has(value)) {
      problems.push(`${owner}: "${field}" is ${JSON.stringify(value)}, which is not a ${kind} in ${MANIFEST} (references use local IDs).`);
    }
  };
  for (const component of [...lists.connection, ...lists.rpc, ...lists.webhook, ...lists.module]) {
    const owner = `${component.type} ${component.id}`;
    const { meta } = component;
    if (component.type === 'module' || component.type === 'rpc') {
      if (!/^[a-zA-Z][0-9a-zA-Z]{3,47}$/.test(component.id)) {
        problems.push(`${owner}: ${component.type} IDs must be 4-48 letters and digits, starting with a letter.`);
      }
    }
    if (component.type !== 'connection') {
      checkRef(owner, 'connection', meta.connection, connections, 'connection');
      checkRef(owner, 'altConnection', meta.altConnection, connections, 'connection');
    }
    if (component.type === 'connection' && meta.connectionType !== undefined && !['basic', 'oauth'].includes(meta.connectionType)) {
      problems.push(`${owner}: connectionType must be "basic" or "oauth".`);
    }
    if (component.type === 'webhook' && meta.webhookType !== undefined && !['web', 'web-shared'].includes(meta.webhookType)) {
      problems.push(`${owner}: webhookType must be "web" or "web-shared".`);
    }
    if (component.type !== 'module') continue;
    const moduleType = meta.moduleType;
    if (typeof moduleType !== 'string' || !(moduleType in MODULE_TYPE_IDS)) {
      problems.push(`${owner}: moduleType must be one of ${Object.keys(MODULE_TYPE_IDS).join(', ')} (got ${JSON.stringify(moduleType)}).`);
    }
    if (moduleType === 'instant_trigger') {
      if (!meta.webhook) problems.push(`${owner}: an instant_trigger module needs "webhook" (the local ID of a webhook).`);
      else checkRef(owner, 'webhook', meta.webhook, webhooks, 'webhook');
    }
    if (moduleType === 'action' && !meta.actionCrud) {
      problems.push(`${owner}: an action module needs "actionCrud" (create, read, update or delete).`);
    }
  }
}

function indentOf(text: string): string {
  const match = /\n([ \t]+)"/.exec(text);
  return match?.[1] ?? '  ';
}
