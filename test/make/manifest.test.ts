import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { generateMakeApp } from '../../make-app/generator/generate.ts';
import {
  CODE_KEYS,
  COMPONENT_TYPES,
  GENERAL_CODES,
  MANIFEST,
  MODULE_TYPES,
  type ComponentMetadata,
  type IdMappingItem,
  type Manifest,
  type Origin,
} from '../../make-app/manifest.ts';
import { checkAgainstSchemas } from '../../make-app/schema-check/check-against-schemas.ts';
import { makeSchemasDir } from '../../make-app/schema-check/beside-checkout.ts';

// Make's official schema of makecomapp.json (../shared/make-sdk-schemas, read, never copied):
// the one typed manifest of make-app/manifest.ts must name exactly what it names.
const schema = JSON.parse(readFileSync(`${makeSchemasDir}makecomapp.schema.json`, 'utf8')) as { definitions: Record<string, any> };
const definition = (prefix: string) => Object.entries(schema.definitions).find(([name]) => name.startsWith(prefix))![1];
const properties = (prefix: string) => Object.keys(definition(prefix).properties).sort();
const required = (prefix: string) => [...(definition(prefix).required as string[])].sort();

// Each object lists every key of a type: `satisfies` fails the type-check on a missing or extra one.
const manifestKeys = { fileVersion: 1, generalCodeFiles: 1, components: 1, origins: 1 } satisfies Record<keyof Manifest, 1>;
const metadataKeys = {
  label: 1,
  description: 1,
  connectionType: 1,
  webhookType: 1,
  moduleType: 1,
  actionCrud: 1,
  connection: 1,
  altConnection: 1,
  webhook: 1,
  attachedAccounts: 1,
  annotations: 1,
  codeFiles: 1,
} satisfies Record<keyof ComponentMetadata, 1>;
const originKeys = { label: 1, baseUrl: 1, appId: 1, appVersion: 1, apikeyFile: 1, idMapping: 1 } satisfies Record<keyof Origin, 1>;
const mappingItemKeys = { local: 1, remote: 1, localDeleted: 1, nonOwnedByApp: 1 } satisfies Record<keyof IdMappingItem, 1>;
const keys = (object: object) => Object.keys(object).sort();

describe("the typed Make manifest (make-app/manifest.ts) follows Make's makecomapp.schema.json", () => {
  it('has the same properties, and requires what the schema requires', () => {
    expect(keys(manifestKeys)).toEqual(properties('MakecomappJson'));
    expect(keys(metadataKeys)).toEqual(properties('AppComponentMetadataWithCodeFiles'));
    expect(keys(originKeys)).toEqual(properties('LocalAppOrigin'));
    expect(keys(mappingItemKeys)).toEqual(properties('ComponentIdMappingItem'));
    expect(required('MakecomappJson')).toEqual(keys(manifestKeys)); // all four: origins is not optional
    expect(required('LocalAppOrigin')).toEqual(['apikeyFile', 'appId', 'appVersion', 'baseUrl']);
  });

  it('has the same component types, general codes, code kinds and module types', () => {
    expect([...COMPONENT_TYPES].sort()).toEqual(required('AppComponentTypesMetadata'));
    expect([...COMPONENT_TYPES].sort()).toEqual(required('ComponentIdMapping'));
    expect([...GENERAL_CODES].sort()).toEqual(required('GeneralCodeFilesMetadata'));
    expect([...CODE_KEYS].sort()).toEqual(properties('Partial<Record<ComponentCodeType'));
    expect([...MODULE_TYPES].sort()).toEqual([...definition('AppComponentMetadataWithCodeFiles').properties.moduleType.enum].sort());
  });

  it("the generator's manifest, typed by it, passes the schema", () => {
    const files = new Map([[MANIFEST, generateMakeApp().get(MANIFEST)]]);
    expect(checkAgainstSchemas(makeSchemasDir, files)).toEqual([expect.objectContaining({ errors: [] })]);
  });
});
