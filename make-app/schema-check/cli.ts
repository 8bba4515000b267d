// `npm run make:check-schemas`: the generated Make app against Make's official schemas in ../shared/make-sdk-schemas.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateMakeApp } from '../generator/generate.ts';
import { checkAgainstSchemas } from './check-against-schemas.ts';

const schemasDir = fileURLToPath(new URL('../../../shared/make-sdk-schemas/', import.meta.url));
if (!existsSync(schemasDir)) {
  console.error(`Make's schemas are not at ${schemasDir}: the check needs the shared folder beside the checkout.`);
  process.exit(2);
}
const results = checkAgainstSchemas(schemasDir, generateMakeApp());
let failed = 0;
for (const { path, schema, errors } of results) {
  if (!schema) continue;
  if (errors.length) failed += 1;
  console.log(`${errors.length ? 'FAIL' : 'ok  '} ${path} (${schema})${errors.map((e) => `\n       ${e}`).join('')}`);
}
const checked = results.filter((r) => r.schema).length;
const skipped = results.filter((r) => !r.schema).map((r) => r.path);
console.log(`\nMake schemas: ${checked - failed} of ${checked} files valid${skipped.length ? `; not governed by a schema: ${skipped.join(', ')}` : ''}`);
process.exit(failed ? 1 : 0);
