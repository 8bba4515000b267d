import type { ComponentType } from '../manifest.ts';
import { makeNames } from '../operation-names.ts';

/** Local ids of the Make app's components: part of the public contract, like the Zapier keys. */
export const CONNECTION = 'pagerly';
export const TEAM_RPC = makeNames.listTeams.name;
export const WEBHOOK = 'onCallChanges';
export const UNIVERSAL_MODULE = 'makeApiCall';

/** `createIncident` → `create-incident`: the editor's folder and file naming. */
export const kebab = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** `modules/create-incident/create-incident.communication.iml.json`. */
export const codeFilePath = (type: ComponentType, id: string, suffix: string) => `${type}s/${kebab(id)}/${kebab(id)}.${suffix}.iml.json`;
