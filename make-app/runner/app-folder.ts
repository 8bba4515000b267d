import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type CodeFiles = Record<string, string | null>;
type Components = Record<'connection' | 'webhook' | 'module' | 'rpc', Record<string, { codeFiles: CodeFiles } & Record<string, unknown>>>;

/** A generated Make app as the runner reads it: from the generator's output in memory or from its folder. */
export interface MakeApp {
  manifest: { components: Components; generalCodeFiles: Record<string, string | null> };
  read(path: string): unknown;
}

export function appFromFiles(files: ReadonlyMap<string, unknown>): MakeApp {
  const read = (path: string) => {
    if (!files.has(path)) throw new Error(`The Make app has no file ${path}`);
    return structuredClone(files.get(path));
  };
  return { manifest: read('makecomapp.json') as MakeApp['manifest'], read };
}

export function appFromFolder(folder: string): MakeApp {
  const read = (path: string) => JSON.parse(readFileSync(join(folder, path), 'utf8')) as unknown;
  return { manifest: read('makecomapp.json') as MakeApp['manifest'], read };
}

/** One code file of one component, e.g. the `communication` of module `createIncident`. */
export function codeOf(app: MakeApp, type: keyof Components, id: string, code: string): unknown {
  const component = app.manifest.components[type][id];
  if (!component) throw new Error(`The Make app has no ${type} "${id}"`);
  const path = component.codeFiles[code];
  if (!path) throw new Error(`${type} "${id}" has no ${code} file`);
  return app.read(path);
}

export function baseOf(app: MakeApp): Record<string, unknown> {
  const path = app.manifest.generalCodeFiles.base;
  return path ? (app.read(path) as Record<string, unknown>) : {};
}
