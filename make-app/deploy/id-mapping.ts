// The local → remote name mapping of a deployed app, kept in makecomapp.json's
// `origins[0].idMapping` as Make's VS Code editor keeps it. Make names connections and
// webhooks itself (`<app>`, `<app>2`, …), so only this record lets a re-deploy update them
// instead of creating new ones. Modules and RPCs keep their local ID as remote name.
import { writeFileSync } from 'node:fs';
import type { AppFolder, IdMapping, Manifest, Origin } from './app-folder.ts';
import type { DeploySettings } from './settings.ts';

export type MappedType = keyof IdMapping;

export const baseUrlOf = (zone: string): string => `https://${zone}/api`;

/** Where the VS Code editor looks for the token; make:deploy itself reads MAKE_API_TOKEN. */
export const DEFAULT_APIKEY_FILE = '.secrets/apikey';

export const emptyIdMapping = (): IdMapping => ({ connection: [], endpoint: [], function: [], module: [], rpc: [], webhook: [] });

/**
 * The origin of this deploy target (same zone, app and version) from the manifest, or a new
 * one. A returned origin is a copy: the manifest changes only through `writeOrigin`.
 */
export function originFor(manifest: Manifest, settings: Pick<DeploySettings, 'zone' | 'appName' | 'appVersion'>): Origin {
  const baseUrl = baseUrlOf(settings.zone);
  const found = (manifest.origins ?? []).find(
    (origin) => origin.baseUrl === baseUrl && origin.appId === settings.appName && origin.appVersion === settings.appVersion,
  );
  const idMapping = emptyIdMapping();
  for (const type of Object.keys(idMapping) as MappedType[]) {
    idMapping[type] = (found?.idMapping?.[type] ?? []).map((item) => ({ ...item }));
  }
  return {
    label: found?.label ?? `Make ${settings.zone}`,
    baseUrl,
    appId: settings.appName,
    appVersion: settings.appVersion,
    apikeyFile: found?.apikeyFile ?? DEFAULT_APIKEY_FILE,
    idMapping,
  };
}

/**
 * The remote name mapped to a local component: a name, `null` when the mapping says the
 * component is deliberately not paired (the editor then ignores it), `undefined` if unknown.
 */
export function remoteOf(mapping: IdMapping, type: MappedType, local: string): string | null | undefined {
  const item = mapping[type].find((entry) => entry.local === local);
  return item === undefined ? undefined : item.remote;
}

export function setRemote(mapping: IdMapping, type: MappedType, local: string, remote: string): void {
  const item = mapping[type].find((entry) => entry.local === local);
  if (item) item.remote = remote;
  else mapping[type].push({ local, remote });
}

/** Remote names already paired with some local component. */
export const claimedRemotes = (mapping: IdMapping, type: MappedType): Set<string> =>
  new Set(mapping[type].flatMap((entry) => (entry.remote === null ? [] : [entry.remote])));

/**
 * Writes the origin back as `origins[0]` of the folder's makecomapp.json (replacing the
 * entry for the same zone, app and version), leaving everything else as it was.
 */
export function writeOrigin(folder: AppFolder, origin: Origin): void {
  const others = (folder.manifest.origins ?? []).filter(
    (entry) => !(entry.baseUrl === origin.baseUrl && entry.appId === origin.appId && entry.appVersion === origin.appVersion),
  );
  folder.manifest.origins = [origin, ...others];
  writeFileSync(folder.manifestPath, `${JSON.stringify(folder.manifest, null, folder.indent)}\n`);
}
