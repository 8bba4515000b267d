import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST, type CodeKey, type ComponentType, type Manifest } from '../../manifest.ts';

/** A generated Make app as the runner reads it: from the generator's output in memory or from its folder. */
export interface MakeApp {
  manifest: Manifest;
  read(path: string): unknown;
}

export function appFromFiles(files: ReadonlyMap<string, unknown>): MakeApp {
  const read = (path: string) => {
    if (!files.has(path)) throw new Error(`The Make app has no file ${path}`);
    return structuredClone(files.get(path));
  };
  return { manifest: read(MANIFEST) as Manifest, read };
}

export function appFromFolder(folder: string): MakeApp {
  const read = (path: string) => JSON.parse(readFileSync(join(folder, path), 'utf8')) as unknown;
  return { manifest: read(MANIFEST) as Manifest, read };
}

/** One code file of one component, e.g. the `communication` of module `createIncident`. */
export function codeOf(app: MakeApp, type: ComponentType, id: string, code: string): unknown {
  const component = app.manifest.components[type][id];
  if (!component) throw new Error(`The Make app has no ${type} "${id}"`);
  const path = component.codeFiles[code as CodeKey];
  if (!path) throw new Error(`${type} "${id}" has no ${code} file`);
  return app.read(path);
}

export function baseOf(app: MakeApp): Record<string, unknown> {
  const path = app.manifest.generalCodeFiles.base;
  return path ? (app.read(path) as Record<string, unknown>) : {};
}
