import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schemaForFile } from './schema-for-file.ts';

export interface FileResult {
  path: string;
  schema: string | undefined;
  errors: string[];
}

/**
 * Holds every file of a generated app against Make's official JSON Schemas, read from the
 * folder beside the checkout (never copied into the repo). Options as that folder's README says.
 */
export function checkAgainstSchemas(schemasDir: string, files: ReadonlyMap<string, unknown>): FileResult[] {
  const ajv = new Ajv({ strict: false, unicodeRegExp: false, allErrors: true });
  // The schemas use `format: uri`; without the formats plugin ajv would skip it silently.
  addFormats.default(ajv);
  for (const name of readdirSync(schemasDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, name), 'utf8')), name);
  }
  return [...files]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, content]) => {
      const schema = schemaForFile(path);
      if (!schema) return { path, schema, errors: [] };
      const validate = ajv.getSchema(schema);
      if (!validate) return { path, schema, errors: [`schema ${schema} is missing from ${schemasDir}`] };
      const valid = validate(content);
      const errors = valid ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      return { path, schema, errors };
    });
}
