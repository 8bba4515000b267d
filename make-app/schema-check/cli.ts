// `npm run make:check-schemas`: the generated Make app against Make's official schemas in ../shared/make-sdk-schemas.
import { makeSchemasDir, missingBesideCheckout } from '../../scripts/beside-checkout.ts';
import { generateMakeApp } from '../generator/generate.ts';
import { checkAgainstSchemas } from './check-against-schemas.ts';

const missing = missingBesideCheckout([makeSchemasDir]);
if (missing) {
  console.error(missing);
  process.exit(2);
}
const results = checkAgainstSchemas(makeSchemasDir, generateMakeApp());
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
