// The origin of a deploy target in makecomapp.json's format (Make's VS Code editor reads it
// too): the zone, app and version, and idMapping, local → remote names. Make names connections
// and webhooks itself (`<app>`, `<app>2`, …), so only this record lets a re-deploy update them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialise } from '../../surfaces/write-files.ts';
import { emptyIdMapping, MANIFEST, readManifest, type ComponentType, type IdMapping, type Origin } from '../manifest.ts';
import { readOrigins, writeOrigins } from '../origins.ts';

export interface Target {
  zone: string;
  appName: string;
  appVersion: number;
}

const sameTarget = (a: Origin, b: Origin) => a.baseUrl === b.baseUrl && a.appId === b.appId && a.appVersion === b.appVersion;

/** This target's origin from the origins file (a copy), or a new one. */
export function originFor(originsFile: string, { zone, appName, appVersion }: Target): Origin {
  const fresh: Origin = { label: `Make ${zone}`, baseUrl: `https://${zone}/api`, appId: appName, appVersion, apikeyFile: '.secrets/apikey' };
  const found = readOrigins(originsFile).find((origin) => sameTarget(origin, fresh));
  return { ...fresh, ...structuredClone(found), idMapping: { ...emptyIdMapping(), ...structuredClone(found?.idMapping) } };
}

/** A remote name, `null` when idMapping deliberately leaves the component unpaired, `undefined` if unknown. */
export const remoteOf = (mapping: IdMapping, type: ComponentType, local: string): string | null | undefined =>
  mapping[type].find((item) => item.local === local)?.remote;

export function setRemote(mapping: IdMapping, type: ComponentType, local: string, remote: string): void {
  const item = mapping[type].find((entry) => entry.local === local);
  if (item) item.remote = remote;
  else mapping[type].push({ local, remote });
}

/** Puts the origin first in the origins file, keeping the others, and copies them into the folder's makecomapp.json as a build would. */
export function saveOrigin(origin: Origin, originsFile: string, appDir: string): void {
  const origins = [structuredClone(origin), ...readOrigins(originsFile).filter((other) => !sameTarget(other, origin))];
  writeOrigins(origins, originsFile);
  writeFileSync(join(appDir, MANIFEST), serialise({ ...readManifest(appDir), origins }));
}
